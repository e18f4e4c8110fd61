import { and, countDistinct, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { tracks, trackTeams } from '../../db/schema/index.ts';

/**
 * How many live tracks the teams hold (their own and those shared with them, each once), with the list's
 * status and text filters: the `total` of GET /tracks?count=true.
 */
export async function countTracks(
  db: Db,
  filter: { teamIds: number[]; statusId?: string | undefined; q?: string | undefined },
): Promise<number> {
  if (filter.teamIds.length === 0) return 0;
  const [row] = await db
    .select({ n: countDistinct(tracks.id) })
    .from(trackTeams)
    .innerJoin(tracks, eq(tracks.id, trackTeams.trackId))
    .where(
      and(
        inArray(trackTeams.teamId, filter.teamIds),
        isNull(tracks.deletedAt),
        filter.statusId === undefined ? undefined : eq(tracks.statusId, filter.statusId),
        filter.q === undefined
          ? undefined
          : sql`strpos(lower(${tracks.title} || ' ' || coalesce(${tracks.artist}, '') || ' ' || coalesce(${tracks.genre}, '')), lower(${filter.q})) > 0`,
      ),
    );
  return row?.n ?? 0;
}
