import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { albumTracks, type StatusConfig, type TeamRole, teams, tracks } from '../../../db/schema/index.ts';

/** One person whose latest decision on a track's current version is `approved`, with their role in its team. */
export type Approver = { userId: string; role: TeamRole };

/**
 * The approvers of the track `tracks` stands for (a correlated subquery): distinct people whose latest decision
 * on the current version (the final one, else the newest) is `approved` and who are members of the team that
 * owns the track. A decision counts whatever became of its review (closed, withdrawn): it is the person's
 * word on that version until they decide again. The outer `tracks` is named in full: a select from one table
 * leaves its own columns unqualified, which the subqueries would take for their own.
 */
const approversOfTrack = sql<Approver[]>`coalesce((
  select json_agg(json_build_object('userId', d.user_id, 'role', m.role) order by d.user_id)
  from (
    select distinct on (rr.user_id) rr.user_id, rr.decision
    from review_reviewers rr join version_reviews r on r.id = rr.review_id
    where r.version_id = (
        select v.id from track_versions v where v.track_id = "tracks"."id"
        order by v.is_final desc, v.id desc limit 1)
      and rr.decision is not null
    order by rr.user_id, rr.decided_at desc, r.id desc
  ) d
  join team_members m on m.team_id = "tracks"."team_id" and m.user_id = d.user_id
  where d.decision = 'approved'), '[]'::json)`;

/** The approvers of each of `trackIds`, in one statement (a track not found is left out). */
export async function approversOfTracks(db: Db, trackIds: number[]): Promise<Map<number, Approver[]>> {
  if (trackIds.length === 0) return new Map();
  const rows = await db
    .select({ trackId: tracks.id, approvers: approversOfTrack })
    .from(tracks)
    .where(inArray(tracks.id, trackIds));
  return new Map(rows.map((r) => [r.trackId, r.approvers]));
}

/** Each album's live tracks with their approvers, in one statement; an album without tracks maps to []. */
export async function approversOfAlbumTracks(
  db: Db,
  albumIds: number[],
): Promise<Map<number, { trackId: number; approvers: Approver[] }[]>> {
  const byAlbum = new Map(albumIds.map((id) => [id, [] as { trackId: number; approvers: Approver[] }[]]));
  if (albumIds.length === 0) return byAlbum;
  const rows = await db
    .select({ albumId: albumTracks.albumId, trackId: tracks.id, approvers: approversOfTrack })
    .from(albumTracks)
    .innerJoin(tracks, and(eq(tracks.id, albumTracks.trackId), isNull(tracks.deletedAt)))
    .where(inArray(albumTracks.albumId, albumIds))
    .orderBy(albumTracks.albumId, albumTracks.position, tracks.id);
  for (const { albumId, trackId, approvers } of rows) byAlbum.get(albumId)?.push({ trackId, approvers });
  return byAlbum;
}

/** The status configurations of `teamIds`, in one statement. */
export async function statusConfigsOf(db: Db, teamIds: number[]): Promise<Map<number, StatusConfig>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db
    .select({ id: teams.id, statusConfig: teams.statusConfig })
    .from(teams)
    .where(inArray(teams.id, teamIds));
  return new Map(rows.map((r) => [r.id, r.statusConfig]));
}

/** The track's status, locked for a move; undefined when it is gone or soft-deleted. */
export async function lockTrackStatus(db: Db, trackId: number) {
  const [row] = await db
    .select()
    .from(tracks)
    .where(and(eq(tracks.id, trackId), isNull(tracks.deletedAt)))
    .for('no key update');
  return row;
}

/**
 * Every track of the team's status, soft-deleted ones too (a configuration change moves them all, and a
 * restored track comes back where it was moved).
 */
export async function trackIdsInStatus(db: Db, teamId: number, statusId: string): Promise<number[]> {
  const rows = await db
    .select({ id: tracks.id })
    .from(tracks)
    .where(and(eq(tracks.teamId, teamId), eq(tracks.statusId, statusId)))
    .orderBy(tracks.id);
  return rows.map((r) => r.id);
}
