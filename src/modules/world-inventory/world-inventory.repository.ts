import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  organisationMembers,
  organisations,
  organisationTeams,
  teamMembers,
  teams,
} from '../../db/schema/index.ts';

const count = (query: ReturnType<typeof sql>) => sql<number>`(${query})`.mapWith(Number);

/** The user's teams with their role and counts: one statement whatever the number of teams. */
export function teamsOfUser(db: Db, userId: string) {
  return db
    .select({
      id: teams.id,
      name: teams.name,
      slug: teams.slug,
      planId: teams.planId,
      role: teamMembers.role,
      hiddenInSwitcher: teamMembers.hiddenInSwitcher,
      organisationId: organisationTeams.organisationId,
      members: count(sql`select count(*) from team_members m where m.team_id = ${teams.id}`),
      tracks: count(
        sql`select count(*) from tracks t where t.team_id = ${teams.id} and t.deleted_at is null`,
      ),
      albums: count(sql`select count(*) from albums a where a.team_id = ${teams.id}`),
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .leftJoin(organisationTeams, eq(organisationTeams.teamId, teams.id))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(sql`lower(${teams.name})`), asc(teams.id));
}

/**
 * The organisations the user is a member of, or holds a team of (role null then), with their counts: one
 * statement.
 */
export function organisationsOfUser(db: Db, userId: string) {
  const throughTeams = db
    .select({ id: organisationTeams.organisationId })
    .from(organisationTeams)
    .innerJoin(teamMembers, eq(teamMembers.teamId, organisationTeams.teamId))
    .where(eq(teamMembers.userId, userId));
  return db
    .select({
      id: organisations.id,
      name: organisations.name,
      role: organisationMembers.role,
      teams: count(
        sql`select count(*) from organisation_teams ot where ot.organisation_id = ${organisations.id}`,
      ),
      members: count(
        sql`select count(*) from organisation_members om where om.organisation_id = ${organisations.id}`,
      ),
    })
    .from(organisations)
    .leftJoin(
      organisationMembers,
      and(eq(organisationMembers.organisationId, organisations.id), eq(organisationMembers.userId, userId)),
    )
    .where(or(isNotNull(organisationMembers.userId), inArray(organisations.id, throughTeams)))
    .orderBy(asc(sql`lower(${organisations.name})`), asc(organisations.id));
}
