import type { Db } from '../../../db/client.ts';
import type { OrganisationRole } from '../../../db/schema/index.ts';
import type { Mailer } from '../../../mail/mailer.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { sqlState } from '../../../shared/db-errors.ts';
import { normaliseEmail } from '../../../shared/email.ts';
import { errors } from '../../../shared/errors.ts';
import { randomToken, sha256 } from '../../../shared/hash.ts';
import { invitationMail } from '../../../shared/invitation-mail.ts';
import { refundResend, takeResend } from '../../../shared/invitation-resends.ts';
import { addressOf } from '../../../shared/own-address.ts';
import { decodeIdCursor, toPage } from '../../../shared/pagination.ts';
import type { RateLimits } from '../../../shared/rate-limits.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { lockOrganisation, manageUnderLock, organisationRoleOf, requireOrganisation } from '../access.ts';
import { isMemberBy } from '../members.repository.ts';
import type { OrganisationMembersService } from '../members.service.ts';
import type { OrganisationsService } from '../organisations.service.ts';
import * as repo from './invitations.repository.ts';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

type Page = { limit: number; cursor?: string | undefined };
export type InvitationInput = {
  userId?: string | undefined;
  email?: string | undefined;
  role?: OrganisationRole | undefined;
};

const ALREADY_PENDING = 'An invitation to this person is already pending';

/** An invitation as lists show it: never its token (kept hashed; only creating and resending answer it). */
function view(row: repo.InvitationRow) {
  const { id, organisationId, email, userId, role, expiresAt, createdAt, createdBy } = row;
  return { id, organisationId, email, userId, role, expiresAt, createdAt, invitedBy: createdBy };
}

/** How the invited person's action reaches an invitation: its token, or its id (for them, without one). */
type InvitationKey = { token: string } | { invitationId: number };

/**
 * Invitations to an organisation: the only way a person joins it. Owners and admins invite an e-mail address
 * or a user id; the answer is the same whether an account exists behind it or not, and tells nothing of the
 * person (no name, no address) until they accept. An invitation to an address is mailed there with its
 * token. The invited person accepts or declines once, signed in as the user or with the address it names:
 * with the token, or by the invitation's id (for an address, once it is verified).
 */
export class OrganisationInvitationsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly members: OrganisationMembersService,
    private readonly organisations: OrganisationsService,
    private readonly mailer: Mailer,
    private readonly limits: RateLimits,
  ) {}

  async list(principal: Principal, organisationId: number, page: Page) {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    const rows = await repo.listOpenInvitations(
      this.db,
      organisationId,
      this.clock.now(),
      page.limit + 1,
      decodeIdCursor(page.cursor),
    );
    const result = toPage(rows, page.limit, (last) => last.id);
    return { items: result.items.map(view), nextCursor: result.nextCursor };
  }

  /**
   * A pending invitation as `role` (default member); only owners invite owners. No account is looked up:
   * 409 only when a member already has that id or address (members are listed to managers anyway), or an
   * invitation to the same person is pending.
   */
  async create(principal: Principal, organisationId: number, input: InvitationInput) {
    if ((input.userId === undefined) === (input.email === undefined))
      throw errors.validation([{ path: '/body/userId', message: 'give userId or email (one of them)' }]);
    const who: repo.Invitee =
      input.userId !== undefined ? { userId: input.userId } : { email: normaliseEmail(input.email!) };
    const role = input.role ?? 'member';
    try {
      return await this.db.transaction(async (tx) => {
        const actor = await manageUnderLock(tx, principal, organisationId);
        if (role === 'owner' && actor.role !== 'owner')
          throw errors.forbidden('Only an owner can invite owners');
        if (await isMemberBy(tx, organisationId, who))
          throw errors.conflict('This person is already a member of the organisation');
        const now = this.clock.now();
        await repo.clearClosedInvitations(tx, organisationId, who, now);
        if (await repo.hasOpenInvitation(tx, organisationId, who)) throw errors.conflict(ALREADY_PENDING);
        const token = randomToken(24);
        const row = await repo.insertInvitation(tx, {
          organisationId,
          email: who.email ?? null,
          userId: who.userId ?? null,
          role,
          tokenHash: sha256(token),
          expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
          createdBy: actor.userId,
          createdAt: now,
        });
        await this.mail(tx, row, token);
        return { ...view(row), token };
      });
    } catch (error) {
      if (sqlState(error) === '23505') throw errors.conflict(ALREADY_PENDING);
      throw error;
    }
  }

  /**
   * Mails an open invitation to an address again, with a new token (the old link stops working) and a new
   * expiry. 404 for an invitation of another organisation; 409 when it was answered or has expired, or was
   * sent to a user id (there is no address to mail); 429 past the resend budgets.
   */
  async resend(principal: Principal, organisationId: number, invitationId: number) {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    const found = await repo.findInvitation(this.db, invitationId);
    if (!found || found.organisationId !== organisationId) throw errors.notFound('invitation');
    if (found.email === null)
      throw errors.conflict('An invitation to a user id is not mailed; it waits in their inbox');
    if (found.acceptedAt || found.declinedAt)
      throw errors.conflict('This invitation has already been answered');
    if (found.expiresAt <= this.clock.now())
      throw errors.conflict('This invitation has expired; withdraw it and invite again');
    const keys = [`organisation_invitation:${invitationId}`, `organisation:${organisationId}`] as const;
    await takeResend(this.limits, ...keys);
    try {
      return await this.db.transaction(async (tx) => {
        const token = randomToken(24);
        const row = await repo.renewInvitation(tx, invitationId, {
          tokenHash: sha256(token),
          expiresAt: new Date(this.clock.now().getTime() + INVITATION_TTL_MS),
        });
        if (!row) throw errors.conflict('This invitation has already been answered');
        await this.mail(tx, row, token);
        return { ...view(row), token };
      });
    } catch (error) {
      await refundResend(this.limits, ...keys);
      throw error;
    }
  }

  /** Queues the invitation mail of an invitation to an address, in the transaction that made the token. */
  private async mail(tx: Db, row: repo.InvitationRow, token: string) {
    if (row.email === null) return;
    const names = await repo.findMailNames(tx, row.organisationId, row.createdBy);
    await this.mailer.send(tx, {
      to: row.email,
      kind: 'organisations.invitation',
      content: invitationMail({
        inviter: names.inviterName,
        to: `the organisation "${names.organisationName}"`,
        role: row.role,
        expiresAt: row.expiresAt,
        url: this.mailer.link('/organisation-invitations/accept', { token }),
        sameAddress: true,
      }),
    });
  }

  async revoke(principal: Principal, organisationId: number, invitationId: number): Promise<void> {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    if (!(await repo.deleteOpenInvitation(this.db, organisationId, invitationId)))
      throw errors.notFound('invitation');
  }

  /**
   * The invited person joins with the invitation's role and gets the organisation. 404 for an unknown token,
   * 403 for someone it was not sent to, 409 when it was answered, has expired, or whoever sent it no longer
   * holds the role it would give (an admin for members and admins, an owner for owners).
   */
  async accept(principal: Principal, key: InvitationKey) {
    const userId = sessionUserId(principal);
    const organisationId = await this.db.transaction(async (tx) => {
      const invitation = await this.requireOwnOpenInvitation(tx, userId, key);
      await lockOrganisation(tx, invitation.organisationId);
      await this.requireSenderStanding(tx, invitation);
      // The conditional update is what makes an invitation single-use when accepts race.
      if (!(await repo.claimInvitation(tx, invitation.id, userId, this.clock.now())))
        throw errors.conflict('This invitation has already been used');
      await this.members.admit(tx, principal, invitation.organisationId, userId, invitation.role);
      return invitation.organisationId;
    });
    return this.organisations.get(principal, organisationId);
  }

  /** Turns the invitation down; it leaves the person's inbox and the organisation may invite them again. */
  async decline(principal: Principal, key: InvitationKey) {
    const userId = sessionUserId(principal);
    return this.db.transaction(async (tx) => {
      const invitation = await this.requireOwnOpenInvitation(tx, userId, key);
      const declined = await repo.declineInvitation(tx, invitation.id, this.clock.now());
      if (!declined) throw errors.conflict('This invitation has already been answered or has expired');
      const { id, organisationId, role, expiresAt, declinedAt } = declined;
      return { id, organisationId, role, expiresAt, declinedAt: declinedAt! };
    });
  }

  /**
   * The open invitation for this user: sent to their id, or to their address. With its token the address
   * need not be verified (holding the token is the proof; 404 unknown, 403 for anyone else); by its id the
   * address alone is the proof, so it must be verified (404 unknown or not theirs, 403 email_unverified).
   * 409 when it is not open.
   */
  private async requireOwnOpenInvitation(tx: Db, userId: string, key: InvitationKey) {
    const byToken = 'token' in key;
    const invitation = byToken
      ? await repo.findInvitationByTokenHash(tx, sha256(key.token))
      : await repo.findInvitation(tx, key.invitationId);
    if (!invitation) throw errors.notFound('invitation');
    if (invitation.userId !== null) {
      if (invitation.userId !== userId) {
        if (!byToken) throw errors.notFound('invitation');
        throw errors.forbidden('This invitation was sent to another account');
      }
    } else {
      const own = await addressOf(tx, userId);
      if (!own || normaliseEmail(own.email) !== normaliseEmail(invitation.email ?? '')) {
        if (!byToken) throw errors.notFound('invitation');
        throw errors.forbidden('This invitation was sent to another e-mail address');
      }
      if (!byToken && !own.verified) throw errors.emailUnverified();
    }
    if (invitation.acceptedAt) throw errors.conflict('This invitation has already been used');
    if (invitation.declinedAt) throw errors.conflict('This invitation was declined');
    if (invitation.expiresAt <= this.clock.now())
      throw errors.conflict('This invitation has expired; ask for a new one');
    return invitation;
  }

  /** An invitation gives no more than its sender still holds: a right ends with the role it came from. */
  private async requireSenderStanding(tx: Db, invitation: repo.InvitationRow): Promise<void> {
    const role = invitation.createdBy
      ? await organisationRoleOf(tx, invitation.createdBy, invitation.organisationId)
      : null;
    const stands = invitation.role === 'owner' ? role === 'owner' : role === 'owner' || role === 'admin';
    if (!stands)
      throw errors.conflict(
        'Whoever sent this invitation can no longer give this role; ask the organisation for a new one',
      );
  }
}
