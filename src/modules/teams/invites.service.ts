import type { Db } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { normaliseEmail } from '../../shared/email.ts';
import { errors } from '../../shared/errors.ts';
import { randomToken, sha256 } from '../../shared/hash.ts';
import { invitationMail } from '../../shared/invitation-mail.ts';
import { refundResend, takeResend } from '../../shared/invitation-resends.ts';
import { addressOf } from '../../shared/own-address.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import { MANAGERS, requireTeam, sessionUserId } from '../../shared/tenancy.ts';
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

/** An invite as lists show it: never its token (kept hashed; only the creating and resending answers hold it). */
function view(row: repo.InviteRow) {
  const { id, teamId, email, expiresAt, createdAt } = row;
  return { id, teamId, email, role: row.role as InviteRole, expiresAt, createdAt };
}

/** How the invitee's action reaches an invite: the mailed token, or its id for their own verified address. */
type InviteKey = { token: string } | { inviteId: number };

/**
 * Team invites: owners and admins invite by e-mail, and the invitee gets the token by mail. Signed in with
 * that address, they accept once with the token, or by the invite's id once the address is verified.
 * Seats on the plan count members and pending invites, so accepting an invite never overfills a team.
 */
export class InvitesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly limits: RateLimits,
    private readonly events: EventLog,
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
        const token = randomToken(24);
        const row = await repo.insertInvite(tx, {
          teamId,
          email,
          role,
          tokenHash: sha256(token),
          expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
          createdBy: userId,
          createdAt: now,
        });
        await this.events.record(tx, {
          type: 'invite.created',
          subject: { type: 'team_invite', id: row.id },
          actor: actorOf(principal),
          teamId,
          payload: { role },
        });
        await this.mail(tx, row, token);
        return { ...view(row), token };
      });
    } catch (error) {
      if (sqlState(error) === '23505') throw errors.conflict(`An invite for ${email} is already pending`);
      throw error;
    }
  }

  /**
   * Mails an open invite again with a new token (the old link stops working) and a new expiry. 404 for an
   * invite of another team, 409 when it was answered or has expired, 429 past the resend budgets.
   */
  async resend(principal: Principal, teamId: number, inviteId: number) {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    const found = await repo.findInvite(this.db, inviteId);
    if (!found || found.teamId !== teamId) throw errors.notFound('invite');
    if (found.acceptedAt || found.declinedAt) throw errors.conflict('This invite has already been answered');
    if (found.expiresAt <= this.clock.now())
      throw errors.conflict('This invite has expired; withdraw it and invite again');
    const keys = [`team_invite:${inviteId}`, `team:${teamId}`] as const;
    await takeResend(this.limits, ...keys);
    try {
      return await this.db.transaction(async (tx) => {
        const token = randomToken(24);
        const now = this.clock.now();
        const row = await repo.renewInvite(tx, inviteId, {
          tokenHash: sha256(token),
          expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
        });
        if (!row) throw errors.conflict('This invite has already been answered');
        await this.events.record(tx, {
          type: 'invite.resent',
          subject: { type: 'team_invite', id: row.id },
          actor: actorOf(principal),
          teamId,
        });
        await this.mail(tx, row, token);
        return { ...view(row), token };
      });
    } catch (error) {
      await refundResend(this.limits, ...keys);
      throw error;
    }
  }

  /** Queues the invitation mail with its accept link in the transaction that made the token. */
  private async mail(tx: Db, row: repo.InviteRow, token: string) {
    const { teamName, inviterName } = await repo.findMailNames(tx, row.teamId, row.createdBy);
    await this.mailer.send(tx, {
      to: row.email,
      kind: 'teams.invite',
      content: invitationMail({
        inviter: inviterName,
        to: `the team "${teamName}"`,
        role: row.role,
        expiresAt: row.expiresAt,
        url: this.mailer.link('/invites/accept', { token }),
        sameAddress: true,
      }),
    });
  }

  async revoke(principal: Principal, teamId: number, inviteId: number): Promise<void> {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    if (!(await repo.deleteOpenInvite(this.db, teamId, inviteId))) throw errors.notFound('invite');
  }

  /**
   * Accepts an invite for the signed-in user: 404 for an unknown token, 403 when it was sent to another
   * address, 409 when it was already used or has expired; otherwise the user joins and gets the team.
   */
  async accept(principal: Principal, key: InviteKey) {
    const userId = sessionUserId(principal);
    return this.db.transaction(async (tx) => {
      const invite = await this.requireOwnOpenInvite(tx, userId, key);
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
  async decline(principal: Principal, key: InviteKey) {
    const userId = sessionUserId(principal);
    return this.db.transaction(async (tx) => {
      const invite = await this.requireOwnOpenInvite(tx, userId, key);
      const declined = await repo.declineInvite(tx, invite.id, this.clock.now());
      if (!declined) throw errors.conflict('This invite has already been answered or has expired');
      await this.events.record(tx, {
        type: 'invite.declined',
        subject: { type: 'team_invite', id: invite.id },
        actor: actorOf(principal),
        teamId: invite.teamId,
      });
      const { id, teamId, role, expiresAt, declinedAt } = declined;
      return { id, teamId, role: role as InviteRole, expiresAt, declinedAt: declinedAt! };
    });
  }

  /**
   * The open invite for the user's own address: by its token (the mailed secret is the proof, so the address
   * need not be verified; 404 unknown, 403 another address), or by its id (the address alone is the proof,
   * so it must be verified: 404 unknown or another address, 403 email_unverified). 409 when not open.
   */
  private async requireOwnOpenInvite(tx: Db, userId: string, key: InviteKey) {
    const invite =
      'token' in key
        ? await repo.findInviteByTokenHash(tx, sha256(key.token))
        : await repo.findInvite(tx, key.inviteId);
    if (!invite) throw errors.notFound('invite');
    const own = await addressOf(tx, userId);
    const mine = own !== undefined && normaliseEmail(own.email) === normaliseEmail(invite.email);
    if ('token' in key) {
      if (!mine) throw errors.forbidden('This invite was sent to another e-mail address');
    } else {
      if (!mine) throw errors.notFound('invite');
      if (!own.verified) throw errors.emailUnverified();
    }
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
