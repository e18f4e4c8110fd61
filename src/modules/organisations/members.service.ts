import type { Db } from '../../db/client.ts';
import type { OrganisationRole } from '../../db/schema/index.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { toPage, withTotal } from '../../shared/pagination.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import type { Departures } from '../memberships/departures.ts';
import { decodeJoinedCursor } from '../teams/cursors.ts';
import { lockOrganisation, managesOrganisation, manageUnderLock, requireOrganisation } from './access.ts';
import * as repo from './members.repository.ts';
import { organisationEvent } from './organisation-events.ts';

type Page = { limit: number; cursor?: string | undefined };

const view = ({ userId, name, email, role, joinedAt }: repo.OrganisationMemberRow) => ({
  userId,
  name,
  email,
  role,
  joinedAt,
});

const OWNER_ONLY = 'Only an owner can make, unmake or remove owners';

/**
 * The members of an organisation. People join by accepting an invitation; owners and admins change and
 * remove members; only owners touch the owner role; anyone may leave. Every change runs under the organisation's lock, so an organisation always
 * keeps an owner (409 otherwise), whatever runs at the same time.
 */
export class OrganisationMembersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly departures: Departures,
    private readonly events: EventLog,
  ) {}

  async list(principal: Principal, organisationId: number, page: Page & { count?: boolean }) {
    await requireOrganisation(this.db, principal, organisationId);
    const rows = await repo.listMembers(
      this.db,
      organisationId,
      page.limit + 1,
      decodeJoinedCursor(page.cursor),
    );
    const result = toPage(rows, page.limit, (last) => [last.joinedMicros, last.userId]);
    return withTotal({ items: result.items.map(view), nextCursor: result.nextCursor }, page.count, () =>
      repo.countMembers(this.db, organisationId),
    );
  }

  /**
   * Makes the user a member as `role`, inside the caller's transaction that holds the organisation's lock:
   * an accepted invitation is the only way in (operators aside). 409 when they are one already.
   */
  async admit(tx: Db, principal: Principal, organisationId: number, userId: string, role: OrganisationRole) {
    const now = this.clock.now();
    if (!(await repo.insertMember(tx, { organisationId, userId, role, joinedAt: now })))
      throw errors.conflict('You are already a member of this organisation');
    await this.record(tx, principal, organisationId, 'organisation.member_added', userId, { role });
    return view(await this.memberOf(tx, organisationId, userId));
  }

  async updateRole(principal: Principal, organisationId: number, userId: string, role: OrganisationRole) {
    return this.db.transaction(async (tx) => {
      const actor = await manageUnderLock(tx, principal, organisationId);
      const target = await this.memberOf(tx, organisationId, userId);
      if (target.role === role) return view(target);
      if ((role === 'owner' || target.role === 'owner') && actor.role !== 'owner')
        throw errors.forbidden(OWNER_ONLY);
      if (target.role === 'owner')
        await this.keepAnOwner(tx, organisationId, 'The last owner cannot be demoted');
      await repo.updateRole(tx, organisationId, userId, role);
      if (target.role !== 'member' && role === 'member')
        await this.departures.organisationDeparture(tx, {
          organisationId,
          userId,
          reason: 'demoted',
          at: this.clock.now(),
        });
      await this.record(tx, principal, organisationId, 'organisation.member_role_changed', userId, {
        from: target.role,
        to: role,
      });
      return view({ ...target, role });
    });
  }

  /** Owners and admins remove others (owners only remove owners); any member may leave. */
  async remove(principal: Principal, organisationId: number, userId: string): Promise<void> {
    const self = sessionUserId(principal) === userId;
    await this.db.transaction(async (tx) => {
      if (!(await lockOrganisation(tx, organisationId))) throw errors.notFound('organisation');
      const actor = await requireOrganisation(tx, principal, organisationId);
      if (!self && !managesOrganisation(actor))
        throw errors.forbidden('Only owners and admins of the organisation can do this');
      const target = await this.memberOf(tx, organisationId, userId);
      if (!self && target.role === 'owner' && actor.role !== 'owner') throw errors.forbidden(OWNER_ONLY);
      if (target.role === 'owner')
        await this.keepAnOwner(tx, organisationId, 'The last owner cannot leave the organisation');
      await repo.deleteMember(tx, organisationId, userId);
      const reason = self ? 'left' : 'removed';
      await this.departures.organisationDeparture(tx, {
        organisationId,
        userId,
        reason,
        at: this.clock.now(),
      });
      await this.record(tx, principal, organisationId, 'organisation.member_removed', userId, {
        role: target.role,
      });
    });
  }

  private async memberOf(db: Db, organisationId: number, userId: string) {
    const member = await repo.findMember(db, organisationId, userId);
    if (!member) throw errors.notFound('member');
    return member;
  }

  private async keepAnOwner(db: Db, organisationId: number, message: string): Promise<void> {
    if ((await repo.countOwners(db, organisationId)) <= 1)
      throw errors.conflict(`${message}; make another member owner first, or delete the organisation`);
  }

  private record(
    tx: Db,
    principal: Principal,
    organisationId: number,
    type: string,
    userId: string,
    payload: Record<string, unknown>,
  ) {
    return this.events.record(
      tx,
      organisationEvent(principal, organisationId, {
        type,
        subject: { type: 'organisation_member', id: userId },
        payload,
      }),
    );
  }
}
