import type { Db } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import { confirmedRead, type Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { errors } from '../../shared/errors.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import { MANAGERS, requireTeam, sessionOf, sessionUserId } from '../../shared/tenancy.ts';
import type { PageInput } from './cursors.ts';
import { countTeam } from './overview-counters.ts';
import { mergeSocials } from './socials.ts';
import * as repo from './teams.repository.ts';

export type PlanView = {
  id: string;
  name: string;
  apiRequestsPerMinute: number;
  storageQuotaBytes: number;
  maxMembers: number;
};

function planView({ id, name, apiRequestsPerMinute, storageQuotaBytes, maxMembers }: repo.PlanRow): PlanView {
  return { id, name, apiRequestsPerMinute, storageQuotaBytes, maxMembers };
}

/** Teams themselves: the caller's teams, creation and deletion, plan, overview, socials, switcher flag. */
export class TeamsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {}

  async list(principal: Principal, page: PageInput, q?: string) {
    const userId = sessionUserId(principal);
    const rows = await repo.listTeamsOfMember(this.db, userId, {
      limit: page.limit + 1,
      after: decodeIdCursor(page.cursor),
      q,
    });
    return toPage(rows, page.limit, (last) => last.id);
  }

  async create(principal: Principal, input: { name: string }) {
    const userId = sessionUserId(principal);
    const team = await repo.insertTeamWithOwner(this.db, { name: input.name.trim(), ownerId: userId });
    return this.viewFor(userId, team.id);
  }

  async get(principal: Principal, teamId: number) {
    // The member's view of the team is the membership check: another team is 404 there.
    const row = await repo.readTeamOfMember(this.db, sessionOf(principal), teamId, this.clock.now());
    return confirmedRead(principal, row, () => errors.notFound('team'));
  }

  /** The team as `userId` (a member) sees it. */
  private async viewFor(userId: string, teamId: number) {
    const team = await repo.findTeamOfMember(this.db, userId, teamId);
    if (!team) throw errors.notFound('team');
    return team;
  }

  /** Renames the team or changes its slug (owner or admin); a slug another team has is 409. */
  async update(principal: Principal, teamId: number, patch: { name?: string; slug?: string }) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId, MANAGERS);
    const values = patch.name === undefined ? patch : { ...patch, name: patch.name.trim() };
    try {
      await this.db.transaction(async (tx) => {
        await repo.updateTeam(tx, teamId, values, this.clock.now());
        await this.events.record(tx, {
          type: 'team.updated',
          subject: { type: 'team', id: teamId },
          actor: actorOf(principal),
          teamId,
          payload: values,
        });
      });
    } catch (error) {
      if (sqlState(error) === '23505')
        throw errors.conflict(`The slug ${patch.slug} belongs to another team`);
      throw error;
    }
    return this.viewFor(userId, teamId);
  }

  async remove(principal: Principal, teamId: number): Promise<void> {
    await requireTeam(this.db, principal, teamId, ['owner']);
    await repo.deleteTeam(this.db, teamId);
  }

  async plan(principal: Principal, teamId: number): Promise<PlanView> {
    await requireTeam(this.db, principal, teamId);
    const plan = await repo.findPlanOfTeam(this.db, teamId);
    if (!plan) throw errors.notFound('team');
    return planView(plan);
  }

  async overview(principal: Principal, teamId: number) {
    const plan = await this.plan(principal, teamId);
    const counts = await countTeam(this.db, teamId, this.clock.now());
    return { teamId, counts, plan };
  }

  async setSwitcherVisibility(principal: Principal, teamId: number, hidden: boolean) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId);
    await repo.setHiddenInSwitcher(this.db, teamId, userId, hidden);
    return { teamId, hidden };
  }

  async socials(principal: Principal, teamId: number) {
    await requireTeam(this.db, principal, teamId);
    return { teamId, socials: await repo.findSocials(this.db, teamId) };
  }

  async updateSocials(principal: Principal, teamId: number, patch: Record<string, string | null>) {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    return this.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, teamId);
      if (!team) throw errors.notFound('team');
      const merged = mergeSocials(team.socials, patch);
      if ('problems' in merged) throw errors.validation(merged.problems);
      const updated = await repo.updateTeam(tx, teamId, { socials: merged.socials }, this.clock.now());
      return { teamId, socials: updated.socials };
    });
  }
}
