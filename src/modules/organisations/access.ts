import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import {
  type OrganisationRole,
  organisationMembers,
  organisations,
  organisationTeams,
  teamMembers,
} from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { sessionUserId } from '../../shared/tenancy.ts';

export const ORGANISATION_MANAGERS: readonly OrganisationRole[] = ['owner', 'admin'];

/** Who the caller is in an organisation: a member with a role, or (role null) a member of one of its teams. */
export type OrganisationAccess = { organisationId: number; userId: string; role: OrganisationRole | null };

/** What an operation needs: any reader, an owner or admin of the organisation, or an owner. */
export type OrganisationNeed = 'read' | 'manage' | 'own';

// Spelled out: in a one-table select, Drizzle writes the outer column unqualified inside a subquery.
export const ORGANISATION_ID = sql.raw('"organisations"."id"');

const accessOf = preparedQuery(
  'organisation_access',
  (db, p: Placeholders<{ organisationId: number; userId: string }>) =>
    db
      .select({
        role: sql<OrganisationRole | null>`(select m.role from ${organisationMembers} m
          where m.organisation_id = ${ORGANISATION_ID} and m.user_id = ${p.userId})`,
        viaTeam: sql<boolean>`exists (select 1 from ${organisationTeams} ot
          join ${teamMembers} tm on tm.team_id = ot.team_id
          where ot.organisation_id = ${ORGANISATION_ID} and tm.user_id = ${p.userId})`,
      })
      .from(organisations)
      .where(eq(organisations.id, p.organisationId)),
);

/**
 * The tenancy guard of the area: members of the organisation (any role) and members of its teams read it;
 * anyone else gets 404. `manage` needs an owner or admin of the organisation, `own` an owner (403 otherwise).
 */
export async function requireOrganisation(
  db: Db,
  principal: Principal,
  organisationId: number,
  need: OrganisationNeed = 'read',
  /** What the 404 names: the organisation, or the camp a request reached it through. */
  subject = 'organisation',
): Promise<OrganisationAccess> {
  const userId = sessionUserId(principal);
  const [row] = await accessOf(db, { organisationId, userId });
  if (!row || (row.role === null && !row.viaTeam)) throw errors.notFound(subject);
  if (need === 'manage' && (row.role === null || !ORGANISATION_MANAGERS.includes(row.role)))
    throw errors.forbidden('Only owners and admins of the organisation can do this');
  if (need === 'own' && row.role !== 'owner')
    throw errors.forbidden('Only owners of the organisation can do this');
  return { organisationId, userId, role: row.role };
}

/** Whether the caller may manage the organisation (an owner or admin of it). */
export const managesOrganisation = (access: OrganisationAccess) =>
  access.role !== null && ORGANISATION_MANAGERS.includes(access.role);

/** The user's role in the organisation, or null when they are not a member of it (team members are not). */
export async function organisationRoleOf(
  db: Db,
  userId: string,
  organisationId: number,
): Promise<OrganisationRole | null> {
  const [row] = await db
    .select({ role: organisationMembers.role })
    .from(organisationMembers)
    .where(
      and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, userId)),
    )
    .limit(1);
  return row?.role ?? null;
}

/**
 * Locks the organisation row for the rest of the transaction: every change that checks counts (owners,
 * queue length, endpoints) takes it first, so concurrent changes of one organisation run one after another.
 * Undefined when there is no such organisation.
 */
export async function lockOrganisation(db: Db, organisationId: number) {
  const [row] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .for('no key update');
  return row;
}

/** Locks the organisation (404 when there is none), then requires an owner or admin of it (403). */
export async function manageUnderLock(tx: Db, principal: Principal, organisationId: number) {
  if (!(await lockOrganisation(tx, organisationId))) throw errors.notFound('organisation');
  return requireOrganisation(tx, principal, organisationId, 'manage');
}

/**
 * The organisation's teams whose data the caller sees in roll-ups: all of them for a member of the
 * organisation, else the caller's own teams among them.
 */
export async function visibleTeamIds(db: Db, access: OrganisationAccess): Promise<number[]> {
  const base = db.select({ teamId: organisationTeams.teamId }).from(organisationTeams).$dynamic();
  const rows =
    access.role !== null
      ? await base.where(eq(organisationTeams.organisationId, access.organisationId))
      : await base
          .innerJoin(
            teamMembers,
            and(eq(teamMembers.teamId, organisationTeams.teamId), eq(teamMembers.userId, access.userId)),
          )
          .where(eq(organisationTeams.organisationId, access.organisationId));
  return rows.map((r) => r.teamId);
}

/** The ids of the organisations the user reads: those they are a member of and those of their teams. */
export const readableOrganisationIds = (userId: string) => sql`(
  select ${organisationMembers.organisationId} from ${organisationMembers}
    where ${organisationMembers.userId} = ${userId}
  union
  select ot.organisation_id from ${organisationTeams} ot
    join ${teamMembers} tm on tm.team_id = ot.team_id where tm.user_id = ${userId})`;
