import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { organisationMembers, organisations, teamMembers, teams, users } from '../../db/schema/index.ts';

/** Locks the user's row for the rest of the transaction; undefined when the user does not exist. */
export async function lockUser(db: Db, userId: string) {
  const [row] = await db
    .select({ deletionRequestedAt: users.deletionRequestedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

export type TeamStanding = { teamId: number; members: number; owners: number; isOwner: boolean };

/**
 * The user's teams with their member and owner counts. The team rows are locked first (FOR UPDATE), which
 * blocks new memberships of those teams until the transaction ends, so the counts stay true.
 */
export async function lockTeamsOf(db: Db, userId: string): Promise<TeamStanding[]> {
  const myTeamIds = db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId));
  await db
    .select({ id: teams.id })
    .from(teams)
    .where(inArray(teams.id, myTeamIds))
    .orderBy(teams.id)
    .for('update');
  return db
    .select({
      teamId: teamMembers.teamId,
      members: sql<number>`count(*)`.mapWith(Number),
      owners: sql<number>`count(*) filter (where ${teamMembers.role} = 'owner')`.mapWith(Number),
      isOwner: sql<boolean>`bool_or(${teamMembers.userId} = ${userId} and ${teamMembers.role} = 'owner')`,
    })
    .from(teamMembers)
    .where(inArray(teamMembers.teamId, myTeamIds))
    .groupBy(teamMembers.teamId)
    .orderBy(teamMembers.teamId);
}

export async function removeMemberships(db: Db, userId: string): Promise<void> {
  await db.delete(teamMembers).where(eq(teamMembers.userId, userId));
}

export async function deleteTeams(db: Db, teamIds: number[]): Promise<void> {
  if (teamIds.length > 0) await db.delete(teams).where(inArray(teams.id, teamIds));
}

export async function markDeletionRequested(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ deletionRequestedAt: now, defaultTeamId: null, updatedAt: now })
    .where(eq(users.id, userId));
}

export type OrganisationStanding = {
  organisationId: number;
  members: number;
  owners: number;
  teams: number;
  isOwner: boolean;
};

/** The user's organisations with their member, owner and team counts, their rows locked like the teams'. */
export async function lockOrganisationsOf(db: Db, userId: string): Promise<OrganisationStanding[]> {
  const mine = db
    .select({ id: organisationMembers.organisationId })
    .from(organisationMembers)
    .where(eq(organisationMembers.userId, userId));
  await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(inArray(organisations.id, mine))
    .orderBy(organisations.id)
    .for('update');
  return db
    .select({
      organisationId: organisationMembers.organisationId,
      members: sql<number>`count(*)`.mapWith(Number),
      owners: sql<number>`count(*) filter (where ${organisationMembers.role} = 'owner')`.mapWith(Number),
      // Spelled out: in a one-table select the outer column would be written unqualified, and bind inside.
      teams: sql<number>`(select count(*) from organisation_teams ot
        where ot.organisation_id = organisation_members.organisation_id)`.mapWith(Number),
      isOwner: sql<boolean>`bool_or(${organisationMembers.userId} = ${userId} and ${organisationMembers.role} = 'owner')`,
    })
    .from(organisationMembers)
    .where(inArray(organisationMembers.organisationId, mine))
    .groupBy(organisationMembers.organisationId)
    .orderBy(organisationMembers.organisationId);
}

export async function removeOrganisationMemberships(db: Db, userId: string): Promise<void> {
  await db.delete(organisationMembers).where(eq(organisationMembers.userId, userId));
}

export async function deleteOrganisations(db: Db, organisationIds: number[]): Promise<void> {
  if (organisationIds.length > 0)
    await db.delete(organisations).where(inArray(organisations.id, organisationIds));
}
