import { and, asc, count, eq, gt, isNull, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { apiKeys, invites, plans, type StatusConfig, teamMembers, teams } from '../../db/schema/index.ts';
import type { SessionPrincipal } from '../../plugins/auth.ts';
import { sessionIsActiveSql } from '../../shared/session-state.ts';
import { insertWithFreeSlug, slugFrom } from '../../shared/slugs.ts';
import { DEFAULT_STATUS_CONFIG } from './default-status-config.ts';

export type TeamRow = typeof teams.$inferSelect;
export type PlanRow = typeof plans.$inferSelect;

const TEAM_SLUGS = { table: teams, column: teams.slug };

/**
 * Creates a team on the default plan with the default statuses; its creator becomes the owner. Its slug
 * comes from its name (`team` when the name has no letters or digits), with `-2`, `-3`, ... when taken.
 */
export async function insertTeamWithOwner(
  db: Db,
  values: { name: string; ownerId: string },
): Promise<TeamRow> {
  return db.transaction(async (tx) => {
    const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.isDefault, true)).limit(1);
    const team = await insertWithFreeSlug(tx, TEAM_SLUGS, slugFrom(values.name, 'team'), async (sp, slug) => {
      const [row] = await sp
        .insert(teams)
        .values({
          name: values.name,
          slug,
          planId: plan!.id,
          statusConfig: DEFAULT_STATUS_CONFIG,
          createdBy: values.ownerId,
        })
        .returning();
      return row!;
    });
    await tx.insert(teamMembers).values({ teamId: team.id, userId: values.ownerId, role: 'owner' });
    return team;
  });
}

const memberCount =
  sql<number>`(select count(*) from ${teamMembers} where ${teamMembers.teamId} = ${teams.id})`
    .mapWith(Number)
    .as('member_count');

/** A team with the role and switcher flag of one member. */
const teamOfMember = {
  id: teams.id,
  name: teams.name,
  slug: teams.slug,
  planId: teams.planId,
  role: teamMembers.role,
  hidden: teamMembers.hiddenInSwitcher,
  memberCount,
  createdAt: teams.createdAt,
  updatedAt: teams.updatedAt,
};

function teamsOf<Extra extends Record<string, SQL.Aliased | SQL>>(
  db: Db,
  userId: string | Placeholder,
  extra: Extra = {} as Extra,
) {
  return db
    .select({ ...teamOfMember, ...extra })
    .from(teams)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId)));
}

const teamOfMemberById = preparedQuery(
  'teams_of_member_by_id',
  (db, p: Placeholders<{ userId: string; teamId: number }>) =>
    teamsOf(db, p.userId).where(eq(teams.id, p.teamId)).limit(1),
);

export async function findTeamOfMember(db: Db, userId: string, teamId: number) {
  const [row] = await teamOfMemberById(db, { userId, teamId });
  return row;
}

type SessionRead = { userId: string; sessionId: string; teamId: number; now: Date };
const teamReadForSession = preparedQuery('teams_read_for_session', (db, p: Placeholders<SessionRead>) =>
  teamsOf(db, p.userId, { callerActive: sessionIsActiveSql(p.sessionId, p.userId, p.now) })
    .where(eq(teams.id, p.teamId))
    .limit(1),
);

/** The team as the session's user (a member) sees it, and whether that session is active, in one statement. */
export async function readTeamOfMember(db: Db, session: SessionPrincipal, teamId: number, now: Date) {
  const [row] = await teamReadForSession(db, {
    userId: session.userId,
    sessionId: session.sessionId,
    teamId,
    now,
  });
  return row;
}

/** The user's teams by id, optionally only those whose name contains `q` (any case). */
export async function listTeamsOfMember(
  db: Db,
  userId: string,
  options: { limit: number; after?: number | undefined; q?: string | undefined },
) {
  return teamsOf(db, userId)
    .where(
      and(
        options.after ? gt(teams.id, options.after) : undefined,
        options.q ? sql`strpos(lower(${teams.name}), lower(${options.q})) > 0` : undefined,
      ),
    )
    .orderBy(asc(teams.id))
    .limit(options.limit);
}

export async function deleteTeam(db: Db, teamId: number): Promise<void> {
  await db.delete(teams).where(eq(teams.id, teamId));
}

export async function findPlanOfTeam(db: Db, teamId: number): Promise<PlanRow | undefined> {
  const [row] = await db
    .select({
      id: plans.id,
      name: plans.name,
      apiRequestsPerMinute: plans.apiRequestsPerMinute,
      storageQuotaBytes: plans.storageQuotaBytes,
      maxMembers: plans.maxMembers,
      isDefault: plans.isDefault,
    })
    .from(teams)
    .innerJoin(plans, eq(plans.id, teams.planId))
    .where(eq(teams.id, teamId))
    .limit(1);
  return row;
}

/**
 * Locks the team row until the transaction ends: changes that check a team-wide rule (seats on the plan,
 * the last owner, the status lists) run one at a time per team. `no key update` leaves writes that only
 * reference the team (an activity entry, a new track) unblocked, so a write holding one of the team's
 * rows never waits here for a change that waits for that row.
 */
export async function lockTeam(db: Db, teamId: number) {
  const [row] = await db
    .select({ id: teams.id, statusConfig: teams.statusConfig, socials: teams.socials })
    .from(teams)
    .where(eq(teams.id, teamId))
    .for('no key update');
  return row;
}

export async function updateTeam(
  db: Db,
  teamId: number,
  values: Pick<Partial<TeamRow>, 'name' | 'slug' | 'statusConfig' | 'socials'>,
  now: Date,
): Promise<TeamRow> {
  const [row] = await db
    .update(teams)
    .set({ ...values, updatedAt: now })
    .where(eq(teams.id, teamId))
    .returning();
  return row!;
}

export async function findStatusConfig(db: Db, teamId: number): Promise<StatusConfig | undefined> {
  const [row] = await db.select({ statusConfig: teams.statusConfig }).from(teams).where(eq(teams.id, teamId));
  return row?.statusConfig;
}

export async function findSocials(db: Db, teamId: number): Promise<Record<string, string>> {
  const [row] = await db.select({ socials: teams.socials }).from(teams).where(eq(teams.id, teamId));
  return row?.socials ?? {};
}

export async function setHiddenInSwitcher(
  db: Db,
  teamId: number,
  userId: string,
  hidden: boolean,
): Promise<void> {
  await db
    .update(teamMembers)
    .set({ hiddenInSwitcher: hidden })
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
}

async function single(query: Promise<{ n: number }[]>): Promise<number> {
  const [row] = await query;
  return row?.n ?? 0;
}

export function countMembers(db: Db, teamId: number): Promise<number> {
  return single(db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, teamId)));
}

/** Invites neither accepted nor expired. */
export function countPendingInvites(db: Db, teamId: number, now: Date): Promise<number> {
  return single(
    db
      .select({ n: count() })
      .from(invites)
      .where(
        and(
          eq(invites.teamId, teamId),
          isNull(invites.acceptedAt),
          isNull(invites.declinedAt),
          gt(invites.expiresAt, now),
        ),
      ),
  );
}

export function countLiveApiKeys(db: Db, teamId: number, now: Date): Promise<number> {
  return single(
    db
      .select({ n: count() })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.teamId, teamId),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
        ),
      ),
  );
}
