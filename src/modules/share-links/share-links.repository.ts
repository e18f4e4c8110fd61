import { and, asc, desc, eq, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  type ShareActivityKind,
  shareLinkActivity,
  shareLinkRecipients,
  shareLinks,
} from '../../db/schema/index.ts';
import { type LinkStatus, linkStatusSql } from './link-status.ts';

export type ShareLinkRow = typeof shareLinks.$inferSelect;
export type LinkWithStatus = ShareLinkRow & { status: LinkStatus };
export type WayInRow = typeof shareLinkRecipients.$inferSelect;
/** A list's position: the link's creation instant (ISO) and id. */
export type LinkKey = [string, number];

const withStatus = (now: Date) => ({ link: shareLinks, status: linkStatusSql(now) });
const flat = ({ link, status }: { link: ShareLinkRow; status: LinkStatus }): LinkWithStatus => ({
  ...link,
  status,
});

export async function insertLink(db: Db, values: typeof shareLinks.$inferInsert): Promise<ShareLinkRow> {
  const [row] = await db.insert(shareLinks).values(values).returning();
  return row!;
}

/** Ways into a link (the general one has no e-mail); answered in the order given. */
export async function insertWaysIn(
  db: Db,
  rows: (typeof shareLinkRecipients.$inferInsert)[],
): Promise<WayInRow[]> {
  if (rows.length === 0) return [];
  return db.insert(shareLinkRecipients).values(rows).returning();
}

/** A link with its status at `now`, of any team (the caller checks the team). */
export async function findLink(db: Db, id: number, now: Date): Promise<LinkWithStatus | undefined> {
  const [row] = await db.select(withStatus(now)).from(shareLinks).where(eq(shareLinks.id, id));
  return row && flat(row);
}

/** Locks a link for a change and answers it (without status). */
export async function lockLink(db: Db, id: number): Promise<ShareLinkRow | undefined> {
  const [row] = await db.select().from(shareLinks).where(eq(shareLinks.id, id)).for('update');
  return row;
}

export type LinkFilters = { status?: LinkStatus; trackId?: number; albumId?: number };

/** A team's links, newest first, `limit` of them after the position `after`. */
export async function listLinks(
  db: Db,
  teamId: number,
  filters: LinkFilters,
  page: { limit: number; after?: LinkKey | undefined },
  now: Date,
): Promise<LinkWithStatus[]> {
  const status = linkStatusSql(now);
  const after = page.after;
  const rows = await db
    .select(withStatus(now))
    .from(shareLinks)
    .where(
      and(
        eq(shareLinks.teamId, teamId),
        filters.status ? sql`${status} = ${filters.status}` : undefined,
        filters.trackId === undefined
          ? undefined
          : or(
              eq(shareLinks.trackId, filters.trackId),
              sql`${filters.trackId} = any(${shareLinks.trackIds})`,
            ),
        filters.albumId === undefined ? undefined : eq(shareLinks.albumId, filters.albumId),
        after
          ? sql`(${shareLinks.createdAt}, ${shareLinks.id}) < (${after[0]}::timestamptz, ${after[1]})`
          : undefined,
      ),
    )
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
    .limit(page.limit + 1);
  return rows.map(flat);
}

/** The ways into the given links, oldest first (the general way in is each link's first). */
export async function waysInOf(db: Db, linkIds: readonly number[]): Promise<WayInRow[]> {
  if (linkIds.length === 0) return [];
  return db
    .select()
    .from(shareLinkRecipients)
    .where(inArray(shareLinkRecipients.linkId, [...linkIds]))
    .orderBy(asc(shareLinkRecipients.id));
}

export async function updateLink(
  db: Db,
  id: number,
  values: Partial<typeof shareLinks.$inferInsert>,
): Promise<void> {
  await db.update(shareLinks).set(values).where(eq(shareLinks.id, id));
}

/** SQL: the link with this id. */
export const linkIs = (id: number): SQL => eq(shareLinks.id, id);

/** Sets `revoked_at` on the links `which` picks that are not revoked yet; answers their ids. */
export async function revokeLinks(db: Db, which: SQL | undefined, now: Date): Promise<number[]> {
  const rows = await db
    .update(shareLinks)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(which, isNull(shareLinks.revokedAt)))
    .returning({ id: shareLinks.id });
  return rows.map((row) => row.id);
}

/** The recipient of a link with this address (any case), revoked or not. */
export async function findRecipientByEmail(
  db: Db,
  linkId: number,
  email: string,
): Promise<WayInRow | undefined> {
  const [row] = await db
    .select()
    .from(shareLinkRecipients)
    .where(and(eq(shareLinkRecipients.linkId, linkId), sql`lower(${shareLinkRecipients.email}) = ${email}`));
  return row;
}

/** Revokes one recipient's way in (not the general one); false when the link has no such recipient. */
export async function revokeRecipient(
  db: Db,
  linkId: number,
  recipientId: number,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ id: shareLinkRecipients.id, revokedAt: shareLinkRecipients.revokedAt })
    .from(shareLinkRecipients)
    .where(
      and(
        eq(shareLinkRecipients.id, recipientId),
        eq(shareLinkRecipients.linkId, linkId),
        sql`${shareLinkRecipients.email} is not null`,
      ),
    );
  if (!row) return false;
  if (row.revokedAt === null)
    await db
      .update(shareLinkRecipients)
      .set({ revokedAt: now })
      .where(eq(shareLinkRecipients.id, recipientId));
  return true;
}

export type ActivityRow = typeof shareLinkActivity.$inferSelect & { recipientEmail: string | null };

/** What guests did through a link, newest first, `limit + 1` rows before the activity id `before`. */
export async function listActivity(
  db: Db,
  linkId: number,
  filters: { recipientId?: number | undefined; kind?: ShareActivityKind | undefined },
  page: { limit: number; before?: number | undefined },
): Promise<ActivityRow[]> {
  return db
    .select({
      id: shareLinkActivity.id,
      linkId: shareLinkActivity.linkId,
      recipientId: shareLinkActivity.recipientId,
      kind: shareLinkActivity.kind,
      versionId: shareLinkActivity.versionId,
      stemId: shareLinkActivity.stemId,
      fileId: shareLinkActivity.fileId,
      playId: shareLinkActivity.playId,
      seconds: shareLinkActivity.seconds,
      at: shareLinkActivity.at,
      recipientEmail: shareLinkRecipients.email,
    })
    .from(shareLinkActivity)
    .innerJoin(shareLinkRecipients, eq(shareLinkRecipients.id, shareLinkActivity.recipientId))
    .where(
      and(
        eq(shareLinkActivity.linkId, linkId),
        filters.recipientId === undefined
          ? undefined
          : eq(shareLinkActivity.recipientId, filters.recipientId),
        filters.kind === undefined ? undefined : eq(shareLinkActivity.kind, filters.kind),
        page.before === undefined ? undefined : lt(shareLinkActivity.id, page.before),
      ),
    )
    .orderBy(desc(shareLinkActivity.id))
    .limit(page.limit + 1);
}
