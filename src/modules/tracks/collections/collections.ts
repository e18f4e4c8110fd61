import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { teamMembers, teams, tracks, trackTeams } from '../../../db/schema/index.ts';

/** Most tracks one picker answer holds; beyond it the answer says `truncated`. */
export const MAX_PICKER_TRACKS = 5000;

/** Where a page of teams ends: the name and id of its last team. */
export type TeamKey = [name: string, id: number];

/** The caller's teams with their track status configuration, by name: `limit` after `after`. */
export async function teamsOfUser(db: Db, userId: string, after: TeamKey | undefined, limit: number) {
  return db
    .select({ id: teams.id, name: teams.name, statusConfig: teams.statusConfig })
    .from(teams)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId)))
    .where(after ? sql`(${teams.name}, ${teams.id}) > (${after[0]}, ${after[1]}::integer)` : undefined)
    .orderBy(asc(teams.name), asc(teams.id))
    .limit(limit);
}

/** Live tracks held by the teams, with the team that holds each (a shared track once per team). */
export async function tracksHeldBy(db: Db, teamIds: number[], limit: number) {
  if (teamIds.length === 0) return [];
  return db
    .select({
      heldBy: trackTeams.teamId,
      id: tracks.id,
      teamId: tracks.teamId,
      statusId: tracks.statusId,
      position: tracks.position,
      title: tracks.title,
      artist: tracks.artist,
    })
    .from(trackTeams)
    .innerJoin(tracks, eq(tracks.id, trackTeams.trackId))
    .where(and(inArray(trackTeams.teamId, teamIds), isNull(tracks.deletedAt)))
    .orderBy(asc(trackTeams.teamId), asc(tracks.statusId), asc(tracks.position), asc(tracks.id))
    .limit(limit);
}
