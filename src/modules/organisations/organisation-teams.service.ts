import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { toPage } from '../../shared/pagination.ts';
import { MANAGERS, requireTeam } from '../../shared/tenancy.ts';
import { lockOrganisation, managesOrganisation, requireOrganisation } from './access.ts';
import { decodeNameCursor } from './cursors.ts';
import { organisationTeamEvent } from './organisation-events.ts';
import * as repo from './organisations.repository.ts';
import { withoutNameKey } from './organisations.service.ts';

type Page = { limit: number; cursor?: string | undefined };

/**
 * The teams an organisation groups. A team belongs to one organisation at most; it joins when someone who
 * manages both (owner or admin of each) adds it, and leaves when a manager of either removes it.
 */
export class OrganisationTeamsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {}

  async list(principal: Principal, organisationId: number, page: Page) {
    await requireOrganisation(this.db, principal, organisationId);
    const rows = await repo.listTeams(this.db, organisationId, page.limit + 1, decodeNameCursor(page.cursor));
    const result = toPage(rows, page.limit, (last) => [last.nameKey, last.id]);
    return { items: result.items.map(withoutNameKey), nextCursor: result.nextCursor };
  }

  async add(principal: Principal, organisationId: number, teamId: number) {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    await requireTeam(this.db, principal, teamId, MANAGERS);
    return this.db.transaction(async (tx) => {
      if (!(await lockOrganisation(tx, organisationId))) throw errors.notFound('organisation');
      const added = await repo.insertTeam(tx, organisationId, teamId, this.clock.now());
      if (!added) {
        const current = await repo.organisationOfTeam(tx, teamId);
        throw errors.conflict(
          current === organisationId
            ? 'The team is already in this organisation'
            : 'The team belongs to another organisation; it has to leave that one first',
        );
      }
      await this.events.record(
        tx,
        organisationTeamEvent(principal, teamId, organisationId, {
          type: 'organisation.team_added',
          subject: { type: 'organisation', id: organisationId },
        }),
      );
      const team = await repo.findTeam(tx, organisationId, teamId);
      if (!team) throw errors.notFound('team');
      return team;
    });
  }

  /** Owners and admins of the organisation remove any of its teams; owners and admins of a team take it out. */
  async remove(principal: Principal, organisationId: number, teamId: number): Promise<void> {
    const access = await requireOrganisation(this.db, principal, organisationId);
    if (!(await repo.findTeam(this.db, organisationId, teamId))) throw errors.notFound('team');
    if (!managesOrganisation(access)) {
      const role = await repo.teamRoleOf(this.db, teamId, access.userId);
      if (!role || !MANAGERS.includes(role))
        throw errors.forbidden('Only owners and admins of the organisation or of the team can do this');
    }
    await this.db.transaction(async (tx) => {
      if (!(await repo.deleteTeam(tx, organisationId, teamId))) throw errors.notFound('team');
      await this.events.record(
        tx,
        organisationTeamEvent(principal, teamId, organisationId, {
          type: 'organisation.team_removed',
          subject: { type: 'organisation', id: organisationId },
        }),
      );
    });
  }
}
