import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { type ShareActivityKind, shareLinkActivity, shareLinkRecipients } from '../../../db/schema/index.ts';

/** The way in an action happened through. */
export type Through = { linkId: number; recipientId: number };

type ActivityFields = {
  versionId?: number | null;
  stemId?: number | null;
  fileId?: number | null;
  seconds?: number | null;
};

async function addActivity(
  tx: Db,
  through: Through,
  kind: ShareActivityKind,
  at: Date,
  fields: ActivityFields,
) {
  await tx.insert(shareLinkActivity).values({ ...through, kind, at, ...fields });
}

/** The way in's counters, locked until the transaction ends. */
async function lockCounters(tx: Db, recipientId: number) {
  const [row] = await tx
    .select({ opens: shareLinkRecipients.opens, lastSeenAt: shareLinkRecipients.lastSeenAt })
    .from(shareLinkRecipients)
    .where(eq(shareLinkRecipients.id, recipientId))
    .for('update');
  return row;
}

/** Marks the way in seen at `now`, adding `counts` to its counters. */
async function seen(
  tx: Db,
  recipientId: number,
  now: Date,
  counts: Partial<Record<'opens' | 'plays' | 'downloads' | 'comments' | 'secondsListened', number>>,
) {
  const add = (column: keyof typeof counts) =>
    counts[column] ? sql`${shareLinkRecipients[column]} + ${counts[column]}` : undefined;
  await tx
    .update(shareLinkRecipients)
    .set({
      ...(counts.opens ? { opens: add('opens') } : {}),
      ...(counts.plays ? { plays: add('plays') } : {}),
      ...(counts.downloads ? { downloads: add('downloads') } : {}),
      ...(counts.comments ? { comments: add('comments') } : {}),
      ...(counts.secondsListened ? { secondsListened: add('secondsListened') } : {}),
      firstSeenAt: sql`coalesce(${shareLinkRecipients.firstSeenAt}, ${now.toISOString()}::timestamptz)`,
      lastSeenAt: now,
    })
    .where(eq(shareLinkRecipients.id, recipientId));
}

/**
 * An open of the way in: counted unless the way in was seen less than `repeatSeconds` ago (one visit).
 * Answers whether it counted, and whether it was the first open ever.
 */
export async function recordOpen(tx: Db, through: Through, now: Date, repeatSeconds: number) {
  const before = await lockCounters(tx, through.recipientId);
  if (!before) return { counted: false, first: false };
  const counted =
    before.lastSeenAt === null || now.getTime() - before.lastSeenAt.getTime() >= repeatSeconds * 1000;
  await seen(tx, through.recipientId, now, { opens: counted ? 1 : 0 });
  if (counted) await addActivity(tx, through, 'open', now, {});
  return { counted, first: counted && before.opens === 0 };
}

/**
 * A report of a play: its first report is a play, later ones raise its seconds (never lower them). The way
 * in's seconds listened grow by what the play's seconds grew.
 */
export async function recordPlay(
  tx: Db,
  through: Through,
  play: { versionId: number; playId: string; seconds: number },
  now: Date,
) {
  if (!(await lockCounters(tx, through.recipientId))) return;
  const inserted = await tx
    .insert(shareLinkActivity)
    .values({
      ...through,
      kind: 'play',
      at: now,
      versionId: play.versionId,
      playId: play.playId,
      seconds: play.seconds,
    })
    .onConflictDoNothing()
    .returning({ id: shareLinkActivity.id });
  if (inserted.length > 0) {
    await seen(tx, through.recipientId, now, { plays: 1, secondsListened: play.seconds });
    return;
  }
  const [earlier] = await tx
    .select({ id: shareLinkActivity.id, seconds: shareLinkActivity.seconds })
    .from(shareLinkActivity)
    .where(
      and(eq(shareLinkActivity.recipientId, through.recipientId), eq(shareLinkActivity.playId, play.playId)),
    );
  const grown = Math.max(0, play.seconds - (earlier?.seconds ?? 0));
  if (earlier && grown > 0)
    await tx
      .update(shareLinkActivity)
      .set({ seconds: play.seconds })
      .where(eq(shareLinkActivity.id, earlier.id));
  await seen(tx, through.recipientId, now, { secondsListened: grown });
}

/**
 * A download through the way in, unless the same file was downloaded through it less than `repeatSeconds`
 * ago (a client fetching again, not a new download). Answers whether it counted.
 */
export async function recordDownload(
  tx: Db,
  through: Through,
  file: { versionId: number; stemId?: number | undefined; fileId: number },
  now: Date,
  repeatSeconds: number,
): Promise<boolean> {
  if (!(await lockCounters(tx, through.recipientId))) return false;
  const since = new Date(now.getTime() - repeatSeconds * 1000);
  const [recent] = await tx
    .select({ id: shareLinkActivity.id })
    .from(shareLinkActivity)
    .where(
      and(
        eq(shareLinkActivity.linkId, through.linkId),
        eq(shareLinkActivity.recipientId, through.recipientId),
        eq(shareLinkActivity.kind, 'download'),
        eq(shareLinkActivity.fileId, file.fileId),
        gt(shareLinkActivity.at, since),
      ),
    )
    .limit(1);
  if (recent) return false;
  await seen(tx, through.recipientId, now, { downloads: 1 });
  await addActivity(tx, through, 'download', now, {
    versionId: file.versionId,
    stemId: file.stemId ?? null,
    fileId: file.fileId,
  });
  return true;
}

/** A comment written through the way in. */
export async function recordComment(tx: Db, through: Through, versionId: number, now: Date) {
  await seen(tx, through.recipientId, now, { comments: 1 });
  await addActivity(tx, through, 'comment', now, { versionId });
}
