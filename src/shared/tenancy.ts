import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type Placeholders, preparedQuery } from '../db/prepared.ts';
import { type TeamRole, teamMembers, users } from '../db/schema/index.ts';
import { confirmedRead, type Principal, type SessionPrincipal } from '../plugins/auth.ts';
import { errors } from './errors.ts';
import { sessionIsActiveSql } from './session-state.ts';

export type TeamAccess = { teamId: number; role: TeamRole | null };

export const MANAGERS: readonly TeamRole[] = ['owner', 'admin'];

const memberRole = preparedQuery(
  'tenancy_member_role',
  (db, p: Placeholders<{ teamId: number; userId: string }>) =>
    db
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, p.teamId), eq(teamMembers.userId, p.userId)))
      .limit(1),
);

type ConfirmingArgs = { teamId: number; userId: string; sessionId: string; now: Date };
/** The caller's role in the team and whether their session is still active, in one statement. */
const memberRoleConfirming = preparedQuery(
  'tenancy_member_role_confirming',
  (db, p: Placeholders<ConfirmingArgs>) =>
    db
      .select({
        role: sql<TeamRole | null>`(select m.role from team_members m
          where m.team_id = ${p.teamId} and m.user_id = ${p.userId})`,
        callerActive: sessionIsActiveSql(p.sessionId, p.userId, p.now),
      })
      .from(users)
      .where(eq(users.id, p.userId)),
);

async function roleOf(db: Db, principal: SessionPrincipal, teamId: number) {
  if (!principal.unconfirmed) {
    const [member] = await memberRole(db, { teamId, userId: principal.userId });
    return member?.role ?? null;
  }
  // A read that deferred the session check (`deferSessionCheck`) confirms it here, with the membership.
  const [row] = await memberRoleConfirming(db, {
    teamId,
    userId: principal.userId,
    sessionId: principal.sessionId,
    now: principal.verifiedAt ?? new Date(),
  });
  return confirmedRead(principal, row, () => errors.unauthorized()).role;
}

/**
 * The tenancy guard: a session must belong to the team, a key must be bound to it; anything else is 404
 * (another team's data is never revealed). With `roles`, a member whose role is not listed gets 403.
 */
export async function requireTeam(
  db: Db,
  principal: Principal,
  teamId: number,
  roles?: readonly TeamRole[],
): Promise<TeamAccess> {
  if (principal.type === 'key') {
    if (principal.teamId !== teamId) throw errors.notFound('team');
    if (roles) throw errors.sessionRequired();
    return { teamId, role: null };
  }
  const role = await roleOf(db, principal, teamId);
  if (!role) throw errors.notFound('team');
  if (roles && !roles.includes(role)) throw errors.forbidden();
  return { teamId, role };
}

/** The session principal of a session-only route. */
export function sessionOf(principal: Principal): SessionPrincipal {
  if (principal.type !== 'session') throw errors.sessionRequired();
  return principal;
}

/** The user behind a session principal (session-only routes). */
export function sessionUserId(principal: Principal): string {
  return sessionOf(principal).userId;
}
