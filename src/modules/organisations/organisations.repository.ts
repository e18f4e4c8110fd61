import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  type OrganisationRole,
  organisationMembers,
  organisations,
  organisationTeams,
  type TeamRole,
  teamMembers,
  teams,
} from '../../db/schema/index.ts';
import { ORGANISATION_ID, readableOrganisationIds } from './access.ts';

export type OrganisationRow = typeof organisations.$inferSelect;

const nameKey = sql<string>`lower(${organisations.name})`;
const teamNameKey = sql<string>`lower(${teams.name})`;

const roleOf = (userId: string) =>
  sql<OrganisationRole | null>`(select m.role from ${organisationMembers} m
    where m.organisation_id = ${ORGANISATION_ID} and m.user_id = ${userId})`;

const organisationColumns = (userId: string) => ({
  id: organisations.id,
  name: organisations.name,
  role: roleOf(userId),
  createdAt: organisations.createdAt,
  updatedAt: organisations.updatedAt,
  nameKey,
});

/** The organisations the user reads, alphabetically, after the cursor `[lower(name), id]`. */
export function listReadable(db: Db, userId: string, limit: number, after?: [string, number]) {
  return db
    .select(organisationColumns(userId))
    .from(organisations)
    .where(
      and(
        sql`${organisations.id} in ${readableOrganisationIds(userId)}`,
        after ? sql`(${nameKey}, ${organisations.id}) > (${after[0]}, ${after[1]}::integer)` : undefined,
      ),
    )
    .orderBy(asc(nameKey), asc(organisations.id))
    .limit(limit);
}

export async function findOrganisation(db: Db, userId: string, organisationId: number) {
  const [row] = await db
    .select(organisationColumns(userId))
    .from(organisations)
    .where(eq(organisations.id, organisationId));
  return row;
}

export async function insertOrganisation(db: Db, values: { name: string; ownerId: string; now: Date }) {
  const [row] = await db
    .insert(organisations)
    .values({ name: values.name, createdBy: values.ownerId, createdAt: values.now, updatedAt: values.now })
    .returning();
  await db.insert(organisationMembers).values({
    organisationId: row!.id,
    userId: values.ownerId,
    role: 'owner',
    joinedAt: values.now,
  });
  return row!;
}

export async function renameOrganisation(db: Db, organisationId: number, name: string, now: Date) {
  const [row] = await db
    .update(organisations)
    .set({ name, updatedAt: now })
    .where(eq(organisations.id, organisationId))
    .returning();
  return row;
}

export async function deleteOrganisation(db: Db, organisationId: number): Promise<void> {
  await db.delete(organisations).where(eq(organisations.id, organisationId));
}

/** The organisation's teams, alphabetically, after the cursor `[lower(name), id]`. */
export function listTeams(db: Db, organisationId: number, limit: number, after?: [string, number]) {
  return db
    .select({ id: teams.id, name: teams.name, addedAt: organisationTeams.addedAt, nameKey: teamNameKey })
    .from(organisationTeams)
    .innerJoin(teams, eq(teams.id, organisationTeams.teamId))
    .where(
      and(
        eq(organisationTeams.organisationId, organisationId),
        after ? sql`(${teamNameKey}, ${teams.id}) > (${after[0]}, ${after[1]}::integer)` : undefined,
      ),
    )
    .orderBy(asc(teamNameKey), asc(teams.id))
    .limit(limit);
}

/** Adds the team; undefined when it already belongs to an organisation (this one or another). */
export async function insertTeam(db: Db, organisationId: number, teamId: number, now: Date) {
  const [row] = await db
    .insert(organisationTeams)
    .values({ organisationId, teamId, addedAt: now })
    .onConflictDoNothing({ target: organisationTeams.teamId })
    .returning();
  return row;
}

/** The organisation a team belongs to, if any. */
export async function organisationOfTeam(db: Db, teamId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ organisationId: organisationTeams.organisationId })
    .from(organisationTeams)
    .where(eq(organisationTeams.teamId, teamId));
  return row?.organisationId;
}

export async function findTeam(db: Db, organisationId: number, teamId: number) {
  const [row] = await db
    .select({ id: teams.id, name: teams.name, addedAt: organisationTeams.addedAt })
    .from(organisationTeams)
    .innerJoin(teams, eq(teams.id, organisationTeams.teamId))
    .where(and(eq(organisationTeams.organisationId, organisationId), eq(organisationTeams.teamId, teamId)));
  return row;
}

export async function deleteTeam(db: Db, organisationId: number, teamId: number): Promise<boolean> {
  const rows = await db
    .delete(organisationTeams)
    .where(and(eq(organisationTeams.organisationId, organisationId), eq(organisationTeams.teamId, teamId)))
    .returning({ teamId: organisationTeams.teamId });
  return rows.length > 0;
}

/** The user's role in a team, or null when they are not in it. */
export async function teamRoleOf(db: Db, teamId: number, userId: string): Promise<TeamRole | null> {
  const [row] = await db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  return row?.role ?? null;
}
