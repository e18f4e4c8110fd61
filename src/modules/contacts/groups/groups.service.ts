import type { Db } from '../../../db/client.ts';
import { actorOf } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isKeyInt, isKeyText } from '../../../shared/cursor-values.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { requireTeam } from '../../../shared/tenancy.ts';
import { rethrowAsConflict } from '../unique-conflicts.ts';
import * as repo from './groups.repository.ts';

const isGroupKey = (value: unknown): value is repo.GroupKey =>
  Array.isArray(value) && value.length === 2 && isKeyText(value[0]) && isKeyInt(value[1]);

/** Named groups of a team's contacts (membership is set on the contact, `groupIds`). */
export class ContactGroupsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {}

  /** A page of the team's groups, alphabetically, each with its member count. */
  async list(principal: Principal, input: { teamId: number; limit: number; cursor?: string | undefined }) {
    await requireTeam(this.db, principal, input.teamId);
    const after = decodeCursor(input.cursor, isGroupKey);
    const rows = await repo.listGroups(this.db, input.teamId, after, input.limit + 1);
    const page = toPage(rows, input.limit, repo.keyOf);
    return { items: page.items.map(({ nameKey: _, ...group }) => group), nextCursor: page.nextCursor };
  }

  /** Creates a group; a name the team already has (in any case) is 409. */
  async create(principal: Principal, input: { teamId: number; name: string }) {
    await requireTeam(this.db, principal, input.teamId);
    const now = this.clock.now();
    return this.db
      .transaction(async (tx) => {
        const group = await repo.insertGroup(tx, {
          teamId: input.teamId,
          name: input.name.trim(),
          actor: actorOf(principal),
          now,
        });
        await this.events.record(tx, {
          type: 'contact_group.created',
          subject: { type: 'contact_group', id: group.id },
          actor: actorOf(principal),
          teamId: input.teamId,
          payload: { name: group.name },
        });
        return group;
      })
      .catch(rethrowAsConflict);
  }
}
