import type { Db } from '../../../db/client.ts';
import type { Mailer } from '../../../mail/mailer.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { sqlState } from '../../../shared/db-errors.ts';
import { errors } from '../../../shared/errors.ts';
import { randomToken, sha256 } from '../../../shared/hash.ts';
import { invitationMail } from '../../../shared/invitation-mail.ts';
import { refundResend, takeResend } from '../../../shared/invitation-resends.ts';
import { decodeIdCursor, toPage } from '../../../shared/pagination.ts';
import type { RateLimits } from '../../../shared/rate-limits.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { requireSession } from '../session-access.ts';
import type { SessionEvents } from '../session-events.ts';
import { linkRefused, type SessionLinkSigners } from '../session-links.ts';
import { lockSession, type SessionRow } from '../sessions.repository.ts';
import { linkRefused as refusedTo, refuseLinks } from './link-refusals.repository.ts';
import * as repo from './participants.repository.ts';

/** How long a join link works. */
export const INVITE_LINK_TTL_DAYS = 7;
const DAY_MS = 86_400_000;

const UNIQUE_VIOLATION = '23505';

type Page = { limit: number; cursor?: string | undefined };
export type InviteInput = {
  teamId?: number | undefined;
  userId?: string | undefined;
  email?: string | undefined;
  name?: string | undefined;
};

/** Runs an answer that may name the user on a second invitation of theirs to the same session: 409 then. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (sqlState(error) === UNIQUE_VIOLATION)
      throw errors.conflict('You are invited to this session twice; answer your other invitation');
    throw error;
  }
}

/** Who takes part in a session: invitations (by user or e-mail), answers, join links. */
export class ParticipantsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: SessionEvents,
    private readonly signers: SessionLinkSigners,
    private readonly baseUrl: string,
    private readonly mailer: Mailer,
    private readonly limits: RateLimits,
  ) {}

  async list(principal: Principal, sessionId: number, teamId: number | undefined, page: Page) {
    await requireSession(this.db, principal, sessionId, 'participant', teamId);
    const rows = await repo.listParticipants(this.db, sessionId, decodeIdCursor(page.cursor), page.limit + 1);
    return toPage(rows, page.limit, (last) => last.id);
  }

  /**
   * Invites a member of the session's team (by userId) or anyone (by e-mail). An e-mail invitation is mailed
   * with a token that accepts it; the answer carries that token (shown this once; it is kept hashed).
   */
  async invite(principal: Principal, sessionId: number, input: InviteInput) {
    if ((input.userId === undefined) === (input.email === undefined))
      throw errors.validation([{ path: '/body', message: 'must have exactly one of userId and email' }]);
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'member', input.teamId);
    if (input.userId !== undefined && !(await repo.isTeamMember(this.db, session.teamId, input.userId)))
      throw errors.notFound('team member');
    const email = input.email?.trim();
    const token = email === undefined ? undefined : randomToken(24);
    return this.db.transaction(async (tx) => {
      const id = await repo.insertParticipant(tx, {
        sessionId,
        userId: input.userId ?? null,
        email: email ?? null,
        name: input.name?.trim() ?? null,
        status: 'invited',
        invitedBy: userId,
        respondedAt: null,
        tokenHash: token === undefined ? null : sha256(token),
        now: this.clock.now(),
      });
      if (id === undefined) throw errors.conflict('This person is already invited to the session');
      await this.events.record(tx, principal, session, 'participant.invited', { participantId: id });
      if (email !== undefined && token !== undefined) await this.mail(tx, sessionId, email, userId, token);
      const participant = (await repo.findParticipant(tx, sessionId, id))!;
      return token === undefined ? participant : { ...participant, token };
    });
  }

  /**
   * Mails an unanswered e-mail invitation again with a new token (the old link stops working). Members of
   * the team, like inviting; 404 for a participant of another session, 409 for one that is not an unanswered
   * e-mail invitation, 429 past the resend budgets (per invitation, and per team with its team invites).
   */
  async resend(principal: Principal, sessionId: number, participantId: number, teamId?: number) {
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'member', teamId);
    const participant = await repo.findParticipant(this.db, sessionId, participantId);
    if (!participant) throw errors.notFound('participant');
    if (participant.email === null || !(await repo.isOpenEmailInvitation(this.db, sessionId, participantId)))
      throw errors.conflict('Only an e-mail invitation nobody has answered yet is mailed again');
    const keys = [`session_invitation:${participantId}`, `team:${session.teamId}`] as const;
    await takeResend(this.limits, ...keys);
    try {
      return await this.db.transaction(async (tx) => {
        const token = randomToken(24);
        if (!(await repo.renewToken(tx, participantId, sha256(token), this.clock.now())))
          throw errors.conflict('This invitation has been answered meanwhile');
        await this.mail(tx, sessionId, participant.email!, participant.invitedBy ?? userId, token);
        return { ...(await repo.findParticipant(tx, sessionId, participantId))!, token };
      });
    } catch (error) {
      await refundResend(this.limits, ...keys);
      throw error;
    }
  }

  /**
   * Answers an e-mail invitation with the token it was mailed with: the token is the proof, whatever the
   * caller's address (verified or not), and the invitation becomes the caller's. The token is spent; later
   * changes of the answer go through respond. 404 for an unknown or spent token; 409 when the caller is
   * invited to the session otherwise already.
   */
  async answerWithToken(principal: Principal, token: string, accept: boolean) {
    const userId = sessionUserId(principal);
    const status = accept ? 'accepted' : 'declined';
    return answering(() =>
      this.db.transaction(async (tx) => {
        const found = await repo.findByTokenHash(tx, sha256(token));
        if (!found) throw errors.notFound('invitation');
        const session = await lockSession(tx, found.sessionId);
        if (!session) throw errors.notFound('invitation');
        // Locked: a concurrent answer with the same token finds it spent.
        const still = await repo.findByTokenHash(tx, sha256(token));
        if (!still) throw errors.notFound('invitation');
        await repo.setAnswer(tx, found.id, { status, userId, now: this.clock.now() });
        await this.events.record(tx, principal, session, 'participant.responded', {
          participantId: found.id,
          status,
        });
        return (await repo.findParticipant(tx, found.sessionId, found.id))!;
      }),
    );
  }

  /** Queues the invitation mail of an e-mail invitation, in the transaction that made its token. */
  private async mail(tx: Db, sessionId: number, to: string, inviterId: string, token: string) {
    const { session, inviterName } = await repo.findMailNames(tx, sessionId, inviterId);
    const when = session ? ` on ${session.startsAt.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
    await this.mailer.send(tx, {
      to,
      kind: 'sessions.invitation',
      content: invitationMail({
        inviter: inviterName,
        to: session
          ? `the studio session "${session.title}" of ${session.teamName}${when}`
          : 'a studio session',
        expiresAt: null,
        url: this.mailer.link('/session-invitations/accept', { token }),
        sameAddress: false,
      }),
    });
  }

  async remove(principal: Principal, sessionId: number, participantId: number, teamId?: number) {
    const { session } = await requireSession(this.db, principal, sessionId, 'member', teamId);
    await this.db.transaction(async (tx) => {
      const removed = await repo.deleteParticipant(tx, sessionId, participantId);
      if (!removed) throw errors.notFound('participant');
      // Removal sticks: a join link does not bring them back, only a new invitation does.
      if (removed.userId !== null)
        await refuseLinks(tx, {
          teamId: session.teamId,
          sessionId,
          userId: removed.userId,
          at: this.clock.now(),
        });
      // No longer a participant, they would not get the event that says so; it names them.
      const told = removed.userId === null ? [] : [removed.userId];
      await this.events.record(tx, principal, session, 'participant.removed', { participantId }, told);
    });
  }

  /**
   * The invited person accepts or declines (and may change their answer); nobody answers for them. An e-mail
   * invitation is theirs once their address is verified (403 `email_unverified` before).
   */
  async respond(principal: Principal, sessionId: number, input: { accept: boolean; participantId: number }) {
    const { participantId } = input;
    if (await repo.isUnverifiedAddressMatch(this.db, sessionId, participantId, sessionUserId(principal)))
      throw errors.emailUnverified();
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'participant');
    if (!(await repo.findParticipant(this.db, sessionId, participantId)))
      throw errors.notFound('participant');
    if (!(await repo.isOwnParticipation(this.db, participantId, userId)))
      throw errors.forbidden('Only the invited person answers an invitation');
    const status = input.accept ? 'accepted' : 'declined';
    return answering(() =>
      this.db.transaction(async (tx) => {
        await repo.setAnswer(tx, participantId, { status, userId, now: this.clock.now() });
        await this.events.record(tx, principal, session, 'participant.responded', { participantId, status });
        return (await repo.findParticipant(tx, sessionId, participantId))!;
      }),
    );
  }

  /** A signed join link of the session, valid for INVITE_LINK_TTL_DAYS or until the links are rotated. */
  async inviteUrl(principal: Principal, sessionId: number, teamId?: number) {
    const { session } = await requireSession(this.db, principal, sessionId, 'member', teamId);
    return this.link(session);
  }

  /** Revokes every join link of the session handed out so far, and answers a new one. */
  async rotateLinks(principal: Principal, sessionId: number, teamId?: number) {
    await requireSession(this.db, principal, sessionId, 'member', teamId);
    const session = await this.db.transaction(async (tx) => {
      const rotated = await repo.nextLinkVersion(tx, sessionId, this.clock.now());
      if (!rotated) throw errors.notFound('session');
      await this.events.record(tx, principal, rotated, 'links.rotated', { linkVersion: rotated.linkVersion });
      return rotated;
    });
    return this.link(session);
  }

  private link(session: SessionRow) {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + INVITE_LINK_TTL_DAYS * DAY_MS);
    const claims = { s: session.id, v: session.linkVersion, i: now.getTime() };
    const token = this.signers.invites.sign(claims, expiresAt);
    return { url: `${this.baseUrl}/api/v1/session-links/${token}/join`, token, expiresAt };
  }

  /**
   * The signed-in caller joins through a link: an accepted participant (their invitation, if any, accepted).
   * A link of an earlier version of the session's links is revoked (404). Without an invitation, a link does
   * not bring back a participant removed from the session, nor (when made before) a person who left the team.
   */
  async join(principal: Principal, token: string) {
    const userId = sessionUserId(principal);
    const now = this.clock.now();
    const check = this.signers.invites.verify(token, now);
    if (!check.ok) throw linkRefused(check.reason);
    const { s: sessionId, v: version = 1, i: issuedAt = 0 } = check.claims;
    return answering(() =>
      this.db.transaction(async (tx) => {
        const session = await lockSession(tx, sessionId);
        if (session?.linkVersion !== version) throw errors.notFound('session');
        const own = await repo.findOwnParticipation(tx, sessionId, userId);
        const link = { teamId: session.teamId, sessionId, userId, issuedAt: new Date(issuedAt) };
        if (!own && (await refusedTo(tx, link))) throw errors.notFound('session');
        const id =
          own?.id ??
          (await repo.insertParticipant(tx, {
            sessionId,
            userId,
            email: null,
            name: null,
            status: 'accepted',
            invitedBy: null,
            respondedAt: now,
            now,
          }));
        // The session row is locked: no other join of this user can have inserted meanwhile.
        if (id === undefined) throw errors.conflict('Joining the session failed; try again');
        await repo.setAnswer(tx, id, { status: 'accepted', userId, now });
        await this.events.record(tx, principal, session, 'participant.joined', { participantId: id });
        return (await repo.findParticipant(tx, sessionId, id))!;
      }),
    );
  }
}
