import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamMembers } from '../../db/schema/index.ts';

/** Ids of every team the user belongs to. */
export async function listTeamIdsOfUser(db: Db, userId: string): Promise<number[]> {
  const rows = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId));
  return rows.map((r) => r.teamId);
}

/** The users among `userIds` who are not members of the team. */
export async function nonMembers(db: Db, teamId: number, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), inArray(teamMembers.userId, userIds)));
  const members = new Set(rows.map((r) => r.userId));
  return userIds.filter((id) => !members.has(id));
}
