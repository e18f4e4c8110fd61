import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type Placeholders, preparedQuery } from '../db/prepared.ts';
import { type TeamRole, teamMembers } from '../db/schema/index.ts';
import type { Principal, SessionPrincipal } from '../plugins/auth.ts';
import { errors } from './errors.ts';

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
  const [member] = await memberRole(db, { teamId, userId: principal.userId });
  if (!member) throw errors.notFound('team');
  if (roles && !roles.includes(member.role)) throw errors.forbidden();
  return { teamId, role: member.role };
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
