import type { Db } from '../../../db/client.ts';
import type { FollowUpStatus, LeadStatus } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isKeyInstant, isKeyInt, isKeyText } from '../../../shared/cursor-values.ts';
import { decodeCursor, pageOfList, toPage, withTotal } from '../../../shared/pagination.ts';
import { type OrganisationAccess, requireOrganisation, visibleTeamIds } from '../access.ts';
import { nextActionOrder, nextActions } from './next-actions.ts';
import * as repo from './rollups.repository.ts';

type Page = { limit: number; cursor?: string | undefined };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const decodeDueCursor = (cursor: string | undefined) =>
  decodeCursor(
    cursor,
    (v): v is [string | null, string] =>
      Array.isArray(v) &&
      v.length === 2 &&
      (v[0] === null || isKeyInstant(v[0])) &&
      typeof v[1] === 'string' &&
      UUID.test(v[1]),
  );

const decodeProspectCursor = (cursor: string | undefined) =>
  decodeCursor(
    cursor,
    (v): v is [number, string, number] =>
      Array.isArray(v) && v.length === 3 && isKeyInt(v[0]) && isKeyText(v[1]) && isKeyInt(v[2]),
  );

const EMPTY_COUNTS = { new: 0, contacted: 0, qualified: 0, negotiating: 0 };

/**
 * Roll-ups of the CRM over an organisation's teams: follow-up tasks, prospects and the next actions. Members
 * of the organisation see every team's; a reader who only belongs to some of its teams sees what those teams
 * hold, and of the follow-up tasks (which are personal) only their own.
 */
export class RollupsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private async scope(principal: Principal, organisationId: number) {
    const access: OrganisationAccess = await requireOrganisation(this.db, principal, organisationId);
    const teamIds = await visibleTeamIds(this.db, access);
    return { teamIds, followUpsOf: access.role === null ? access.userId : undefined };
  }

  async followUps(
    principal: Principal,
    organisationId: number,
    query: Page & {
      status?: FollowUpStatus | undefined;
      assignee?: string | undefined;
      dueBefore?: string | undefined;
      count?: boolean;
    },
  ) {
    const scope = await this.scope(principal, organisationId);
    const after = decodeDueCursor(query.cursor);
    if (scope.teamIds.length === 0)
      return withTotal({ items: [], nextCursor: null }, query.count, async () => 0);
    const tasks = { teamIds: scope.teamIds, userId: scope.followUpsOf };
    const filters = { status: query.status ?? 'open', assignee: query.assignee, dueBefore: query.dueBefore };
    const rows = await repo.listFollowUps(this.db, tasks, filters, query.limit + 1, after);
    const page = toPage(rows, query.limit, (last) => [last.dueAt?.toISOString() ?? null, last.id]);
    return withTotal(page, query.count, () => repo.countFollowUps(this.db, tasks, filters));
  }

  async prospects(
    principal: Principal,
    organisationId: number,
    query: Page & { status?: LeadStatus | undefined },
  ) {
    const { teamIds } = await this.scope(principal, organisationId);
    const after = decodeProspectCursor(query.cursor);
    if (teamIds.length === 0) return { items: [], nextCursor: null, counts: EMPTY_COUNTS };
    const [rows, counts] = await Promise.all([
      repo.listProspects(this.db, teamIds, query.status, query.limit + 1, after),
      repo.prospectCounts(this.db, teamIds),
    ]);
    const page = toPage(rows, query.limit, (last) => [last.rank, last.nameKey, last.id]);
    return {
      items: page.items.map(({ rank: _, nameKey: __, ...prospect }) => prospect),
      nextCursor: page.nextCursor,
      counts,
    };
  }

  async nextActions(principal: Principal, organisationId: number, page: Page) {
    const scope = await this.scope(principal, organisationId);
    const actions = scope.teamIds.length === 0 ? [] : await nextActions(this.db, scope, this.clock.now());
    return pageOfList(actions, page, nextActionOrder);
  }
}
