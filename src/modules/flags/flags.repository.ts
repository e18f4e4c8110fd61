import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamMembers, teams } from '../../db/schema/index.ts';

/** The plans of the teams a user belongs to, each once. */
export async function plansOfMember(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ planId: teams.planId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId));
  return new Set(rows.map((r) => r.planId));
}
