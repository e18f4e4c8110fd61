import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { normaliseEmail } from '../../shared/email.ts';
import { errors } from '../../shared/errors.ts';
import { randomToken } from '../../shared/hash.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import { MANAGERS, requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import { recordActivity, recordActivityBy } from '../activity/activity.ts';
import type { PageInput } from './cursors.ts';
import * as repo from './invites.repository.ts';
import { findMember, insertMember, isMemberByEmail } from './members.repository.ts';
import {
  countMembers,
  countPendingInvites,
  findPlanOfTeam,
  findTeamOfMember,
  lockTeam,
} from './teams.repository.ts';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

type InviteRole = 'member' | 'admin';

function view(row: repo.InviteRow) {
  const { id, teamId, email, token, expiresAt, createdAt } = row;
  return { id, teamId, email, role: row.role as InviteRole, token, expiresAt, createdAt };
}

/**
 * Team invites: owners and admins invite by e-mail; the invitee, signed in with that address, accepts once.
 * Seats on the plan count members and pending invites, so accepting an invite never overfills a team.
 */
export class InvitesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, teamId: number, page: PageInput) {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    const rows = await repo.listPendingInvites(
      this.db,
      teamId,
      this.clock.now(),
      page.limit + 1,
      decodeIdCursor(page.cursor),
    );
    const result = toPage(rows, page.limit, (last) => last.id);
    return { items: result.items.map(view), nextCursor: result.nextCursor };
  }

  async create(principal: Principal, teamId: number, input: { email: string; role?: InviteRole }) {
    const userId = sessionUserId(principal);
    const role = input.role ?? 'member';
    const email = normaliseEmail(input.email);
    try {
      return await this.db.transaction(async (tx) => {
        await lockTeam(tx, teamId);
        const actor = await requireTeam(tx, principal, teamId, MANAGERS);
        if (role === 'admin' && actor.role !== 'owner')
          throw errors.forbidden('Only an owner can invite admins');
        if (await isMemberByEmail(tx, teamId, email))
          throw errors.conflict(`${email} is already a member of this team`);
        const now = this.clock.now();
        await repo.clearExpiredInvites(tx, teamId, email, now);
        if (await repo.hasOpenInvite(tx, teamId, email))
          throw errors.conflict(`An invite for ${email} is already pending`);
        await this.requireSeat(tx, teamId, now, true);
        const row = await repo.insertInvite(tx, {
          teamId,
          email,
          role,
          token: randomToken(24),
          expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
          createdBy: userId,
          createdAt: now,
        });
        await recordActivityBy(tx, principal, {
          teamId,
          action: 'invite.created',
          subjectType: 'team_invite',
          subjectId: row.id,
          data: { role },
        });
        return view(row);
      });
    } catch (error) {
      if (sqlState(error) === '23505') throw errors.conflict(`An invite for ${email} is already pending`);
      throw error;
    }
  }

  async revoke(principal: Principal, teamId: number, inviteId: number): Promise<void> {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    if (!(await repo.deleteOpenInvite(this.db, teamId, inviteId))) throw errors.notFound('invite');
  }

  /**
   * Accepts an invite for the signed-in user: 404 for an unknown token, 403 when it was sent to another
   * address, 409 when it was already used or has expired; otherwise the user joins and gets the team.
   */
  async accept(principal: Principal, token: string) {
    const userId = sessionUserId(principal);
    return this.db.transaction(async (tx) => {
      const invite = await this.requireOwnOpenInvite(tx, userId, token);
      const now = this.clock.now();
      await lockTeam(tx, invite.teamId);
      // The conditional update is what makes an invite single-use when accepts race.
      if (!(await repo.claimInvite(tx, invite.id, userId, now)))
        throw errors.conflict('This invite has already been used');
      if (await findMember(tx, invite.teamId, userId))
        throw errors.conflict('You are already a member of this team');
      await this.requireSeat(tx, invite.teamId, now, false);
      await insertMember(tx, { teamId: invite.teamId, userId, role: invite.role, joinedAt: now });
      const team = await findTeamOfMember(tx, userId, invite.teamId);
      return team!;
    });
  }

  /** Turns down an invite sent to the signed-in user's address; it leaves their inbox and frees its seat. */
  async decline(principal: Principal, token: string) {
    const userId = sessionUserId(principal);
    return this.db.transaction(async (tx) => {
      const invite = await this.requireOwnOpenInvite(tx, userId, token);
      const declined = await repo.declineInvite(tx, invite.id, this.clock.now());
      if (!declined) throw errors.conflict('This invite has already been answered or has expired');
      await recordActivity(tx, {
        actorUserId: userId,
        actorKeyId: null,
        teamId: invite.teamId,
        action: 'invite.declined',
        subjectType: 'team_invite',
        subjectId: invite.id,
      });
      const { id, teamId, role, expiresAt, declinedAt } = declined;
      return { id, teamId, role: role as InviteRole, expiresAt, declinedAt: declinedAt! };
    });
  }

  /** The invite of `token` for the user's own address, still open: 404, 403 or 409 otherwise. */
  private async requireOwnOpenInvite(tx: Db, userId: string, token: string) {
    const invite = await repo.findInviteByToken(tx, token);
    if (!invite) throw errors.notFound('invite');
    const email = await repo.findUserEmail(tx, userId);
    if (email === undefined || normaliseEmail(email) !== normaliseEmail(invite.email))
      throw errors.forbidden('This invite was sent to another e-mail address');
    if (invite.acceptedAt) throw errors.conflict('This invite has already been used');
    if (invite.declinedAt) throw errors.conflict('This invite was declined');
    if (invite.expiresAt <= this.clock.now())
      throw errors.conflict('This invite has expired; ask for a new one');
    return invite;
  }

  /** 409 when the plan has no seat left; a new invite needs one beyond members and pending invites. */
  private async requireSeat(db: Db, teamId: number, now: Date, countInvites: boolean): Promise<void> {
    const plan = await findPlanOfTeam(db, teamId);
    if (!plan) throw errors.notFound('team');
    const taken =
      (await countMembers(db, teamId)) + (countInvites ? await countPendingInvites(db, teamId, now) : 0);
    if (taken >= plan.maxMembers)
      throw errors.conflict(
        `The ${plan.name} plan allows at most ${plan.maxMembers} members, pending invites included; ` +
          'remove a member or withdraw an invite first',
      );
  }
}
