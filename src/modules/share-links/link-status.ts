import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { albums, shareLinks, tracks, trackVersions } from '../../db/schema/index.ts';

export const LINK_STATUSES = ['active', 'expired', 'revoked', 'gone'] as const;
/**
 * What a review link is now: `revoked` once revoked, `expired` once its end has come, `gone` when what it
 * shows no longer exists (its track deleted, its version or album deleted, a playlist with no live track
 * left), else `active`. Only an active link opens for guests.
 */
export type LinkStatus = (typeof LINK_STATUSES)[number];

const instant = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/**
 * SQL, true when the target of the `share_links` row in scope is gone. Tracks, versions and albums deleted
 * outright take their links with them (foreign keys); this covers the soft-deleted track and the playlist
 * whose tracks are all gone.
 */
export const targetGoneSql: SQL<boolean> = sql<boolean>`(case ${shareLinks.targetType}
  when 'track' then not exists (select 1 from ${tracks} t
    where t.id = ${shareLinks.trackId} and t.deleted_at is null)
  when 'version' then not exists (select 1 from ${trackVersions} v inner join ${tracks} t on t.id = v.track_id
    where v.id = ${shareLinks.versionId} and t.deleted_at is null)
  when 'album' then not exists (select 1 from ${albums} a where a.id = ${shareLinks.albumId})
  else not exists (select 1 from ${tracks} t
    where t.id = any(${shareLinks.trackIds}) and t.team_id = ${shareLinks.teamId} and t.deleted_at is null)
  end)`;

/** SQL: the status (`LinkStatus`) of the `share_links` row in scope at `now`. */
export function linkStatusSql(now: Date): SQL<LinkStatus> {
  return sql<LinkStatus>`(case
    when ${shareLinks.revokedAt} is not null then 'revoked'
    when ${shareLinks.expiresAt} is not null and ${shareLinks.expiresAt} <= ${instant(now)} then 'expired'
    when ${targetGoneSql} then 'gone'
    else 'active' end)`;
}

/** The status of a link from its columns and whether its target is gone, with the same rules as the SQL. */
export function linkStatusOf(
  link: { revokedAt: Date | null; expiresAt: Date | null },
  targetGone: boolean,
  now: Date,
): LinkStatus {
  if (link.revokedAt !== null) return 'revoked';
  if (link.expiresAt !== null && link.expiresAt <= now) return 'expired';
  return targetGone ? 'gone' : 'active';
}

/** The status of the link `linkId` at `now`, read afresh from the database; undefined for no such link. */
export async function shareLinkStatus(db: Db, linkId: number, now: Date): Promise<LinkStatus | undefined> {
  const [row] = await db
    .select({ status: linkStatusSql(now) })
    .from(shareLinks)
    .where(eq(shareLinks.id, linkId));
  return row?.status;
}
