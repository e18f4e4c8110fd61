import type { Db } from '../../db/client.ts';
import type { TeamRole } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { toPage, withTotal } from '../../shared/pagination.ts';
import { MANAGERS, requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import type { Departures } from '../memberships/departures.ts';
import { decodeEmailCursor, decodeJoinedCursor, decodeNameCursor, type PageInput } from './cursors.ts';
import * as repo from './members.repository.ts';
import { lockTeam } from './teams.repository.ts';

const view = ({ userId, name, email, role, joinedAt }: repo.MemberRow) => ({
  userId,
  name,
  email,
  role,
  joinedAt,
});

const isManager = (role: TeamRole | null) => role !== null && MANAGERS.includes(role);

/** Who is in a team: listing, the people directory, the invite picker, roles and leaving. */
export class MembersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly departures: Departures,
  ) {}

  async list(principal: Principal, teamId: number, page: PageInput & { count?: boolean }) {
    await requireTeam(this.db, principal, teamId);
    const rows = await repo.listMembersByJoinDate(
      this.db,
      teamId,
      page.limit + 1,
      decodeJoinedCursor(page.cursor),
    );
    const result = toPage(rows, page.limit, (last) => [last.joinedMicros, last.userId]);
    return withTotal({ items: result.items.map(view), nextCursor: result.nextCursor }, page.count, () =>
      repo.countMembers(this.db, teamId),
    );
  }

  async directory(principal: Principal, teamId: number, page: PageInput) {
    await requireTeam(this.db, principal, teamId);
    const rows = await repo.listMembersByName(this.db, teamId, page.limit + 1, decodeNameCursor(page.cursor));
    const result = toPage(rows, page.limit, (last) => [last.nameKey, last.userId]);
    return { items: result.items.map(view), nextCursor: result.nextCursor };
  }

  async invitable(principal: Principal, teamId: number, page: PageInput) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId);
    const rows = await repo.listInvitable(
      this.db,
      teamId,
      userId,
      page.limit + 1,
      decodeEmailCursor(page.cursor),
    );
    const result = toPage(rows, page.limit, (last) => last.emailKey);
    return {
      items: result.items.map(({ id, name, email }) => ({ id, name, email })),
      nextCursor: result.nextCursor,
    };
  }

  /**
   * Owners and admins change roles; only owners make or unmake owners; a team keeps at least one owner.
   * A demotion below admin ends what the admin role gave (the team API keys the member created, ...).
   */
  async updateRole(principal: Principal, teamId: number, userId: string, role: TeamRole) {
    return this.db.transaction(async (tx) => {
      await lockTeam(tx, teamId);
      const actor = await requireTeam(tx, principal, teamId, MANAGERS);
      const target = await this.memberOf(tx, teamId, userId);
      if (target.role === role) return view(target);
      if ((role === 'owner' || target.role === 'owner') && actor.role !== 'owner')
        throw errors.forbidden('Only an owner can make or unmake owners');
      if (target.role === 'owner') await this.keepAnOwner(tx, teamId, 'The last owner cannot be demoted');
      await repo.updateMemberRole(tx, teamId, userId, role);
      if (isManager(target.role) && !isManager(role))
        await this.departures.teamDeparture(tx, { teamId, userId, reason: 'demoted', at: this.clock.now() });
      return view({ ...target, role });
    });
  }

  /**
   * Owners and admins remove others (only owners remove owners); anyone may leave but the last owner.
   * Everything the membership gave ends with it (see `Departures`).
   */
  async remove(principal: Principal, teamId: number, userId: string): Promise<void> {
    const self = sessionUserId(principal) === userId;
    await this.db.transaction(async (tx) => {
      await lockTeam(tx, teamId);
      const actor = await requireTeam(tx, principal, teamId);
      if (!self && !isManager(actor.role)) throw errors.forbidden();
      const target = await this.memberOf(tx, teamId, userId);
      if (!self && target.role === 'owner' && actor.role !== 'owner')
        throw errors.forbidden('Only an owner can remove an owner');
      if (target.role === 'owner') await this.keepAnOwner(tx, teamId, 'The last owner cannot leave the team');
      await repo.deleteMember(tx, teamId, userId);
      const reason = self ? 'left' : 'removed';
      await this.departures.teamDeparture(tx, { teamId, userId, reason, at: this.clock.now() });
    });
  }

  private async memberOf(db: Db, teamId: number, userId: string): Promise<repo.MemberRow> {
    const member = await repo.findMember(db, teamId, userId);
    if (!member) throw errors.notFound('member');
    return member;
  }

  private async keepAnOwner(db: Db, teamId: number, message: string): Promise<void> {
    if ((await repo.countOwners(db, teamId)) <= 1)
      throw errors.conflict(`${message}; make another member owner first, or delete the team`);
  }
}
