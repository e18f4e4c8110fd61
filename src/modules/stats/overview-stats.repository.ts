import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { plans, teams } from '../../db/schema/index.ts';

const DAY_MS = 86_400_000;

type StatusCount = { statusId: string; count: number };
type Window = { last7Days: number; last30Days: number };

/**
 * Every number of a team's overview in one statement. Each count starts from the team's own tracks or
 * albums (by their team index) and follows the per-track and per-version indexes, so none reads more than
 * the team's rows; soft-deleted tracks and what hangs off them are left out.
 */
export function overviewQuery(db: Db, teamId: number, now: Date) {
  const since7 = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const since30 = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  // The team's live tracks, as `t`.
  const liveTracks = sql`tracks t where t.team_id = ${teams.id} and t.deleted_at is null`;
  const onLiveTrack = sql`tracks t on t.id = v.track_id and t.team_id = ${teams.id} and t.deleted_at is null`;
  return db
    .select({
      statusConfig: teams.statusConfig,
      quotaBytes: plans.storageQuotaBytes,
      tracksByStatus: sql<StatusCount[] | null>`(
        select json_agg(json_build_object('statusId', s.status_id, 'count', s.n))
        from (select t.status_id, count(*) as n from ${liveTracks} group by t.status_id) s)`,
      albumsByStatus: sql<StatusCount[] | null>`(
        select json_agg(json_build_object('statusId', s.status_id, 'count', s.n))
        from (select a.status_id, count(*) as n from albums a where a.team_id = ${teams.id}
              group by a.status_id) s)`,
      versions: sql<Window>`(
        select json_build_object('last7Days', count(*) filter (where v.created_at >= ${since7}::timestamptz),
                                 'last30Days', count(*))
        from track_versions v join ${onLiveTrack}
        where v.created_at >= ${since30}::timestamptz)`,
      comments: sql<Window>`(
        select json_build_object('last7Days', count(*) filter (where c.created_at >= ${since7}::timestamptz),
                                 'last30Days', count(*))
        from version_comments c join track_versions v on v.id = c.version_id
        join ${onLiveTrack}
        where c.created_at >= ${since30}::timestamptz)`,
      openTodos: sql<number>`(
        select count(*) from version_todos d join track_versions v on v.id = d.version_id
        join ${onLiveTrack} where not d.done)`.mapWith(Number),
      pendingReviews: sql<number>`(
        select count(*) from version_reviews r join track_versions v on v.id = r.version_id
        join ${onLiveTrack} where r.status = 'pending')`.mapWith(Number),
      plays30: sql<number>`(
        select count(*) from version_plays p join track_versions v on v.id = p.version_id
        join ${onLiveTrack} where p.played_at >= ${since30}::timestamptz)`.mapWith(Number),
      usedBytes:
        sql<number>`coalesce((select s.used_bytes from team_storage s where s.team_id = ${teams.id}), 0)`.mapWith(
          Number,
        ),
      fileCount:
        sql<number>`coalesce((select s.file_count from team_storage s where s.team_id = ${teams.id}), 0)`.mapWith(
          Number,
        ),
    })
    .from(teams)
    .innerJoin(plans, eq(plans.id, teams.planId))
    .where(eq(teams.id, teamId));
}

export async function overviewCounts(db: Db, teamId: number, now: Date) {
  const [row] = await overviewQuery(db, teamId, now);
  return row;
}
