import type { Db } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { toPage, withTotal } from '../../shared/pagination.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import { requireTeamContacts } from '../contacts/team-contacts.ts';
import { type EntryInput, type EntryPatch, newEntryValues, patchedValues } from './entry-input.ts';
import { type DateRange, dateRangeOf, decodeEntryCursor, today } from './entry-query.ts';
import { entryView } from './entry-view.ts';
import type { FinancialEvents } from './financial-events.ts';
import * as repo from './financials.repository.ts';
import type { EntryType } from './financials.schemas.ts';
import { requireEntry } from './financials-access.ts';

export type EntryListInput = DateRange & {
  teamId: number;
  type?: EntryType | undefined;
  limit: number;
  cursor?: string | undefined;
  count?: boolean;
};

/** A team's financial entries: list, read, create, change and delete, each change with its event. */
export class FinancialsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: FinancialEvents,
  ) {}

  /** A page of the team's entries, newest `occurredOn` first. */
  async list(principal: Principal, input: EntryListInput) {
    await requireTeam(this.db, principal, input.teamId);
    const range = dateRangeOf(input);
    const after = decodeEntryCursor(input.cursor);
    const isIncome = input.type === undefined ? undefined : input.type === 'income';
    const filter = { teamId: input.teamId, ...range, isIncome };
    const rows = await repo.listEntries(this.db, filter, after, input.limit + 1);
    const page = toPage(rows, input.limit, repo.keyOf);
    return withTotal({ items: page.items.map(entryView), nextCursor: page.nextCursor }, input.count, () =>
      repo.countEntries(this.db, filter),
    );
  }

  async get(principal: Principal, entryId: number) {
    return entryView(await requireEntry(this.db, principal, entryId));
  }

  async create(principal: Principal, input: EntryInput & { teamId: number }) {
    const { teamId, ...fields } = input;
    await requireTeam(this.db, principal, teamId);
    const now = this.clock.now();
    const values = newEntryValues(fields, today(now));
    return this.db.transaction(async (tx) => {
      await requireTeamContacts(tx, teamId, [['/body/contactId', values.contactId]]);
      const entry = entryView(await repo.insertEntry(tx, values, { teamId, actor: actorOf(principal), now }));
      await this.events.entry(tx, principal, 'created', entry);
      return entry;
    });
  }

  async update(principal: Principal, entryId: number, patch: EntryPatch) {
    const { teamId } = await requireEntry(this.db, principal, entryId);
    return this.db.transaction(async (tx) => {
      await requireTeamContacts(tx, teamId, [['/body/contactId', patch.contactId]]);
      const row = await repo.updateEntry(tx, teamId, entryId, patchedValues(patch), this.clock.now());
      if (!row) throw errors.notFound('financial entry');
      const entry = entryView(row);
      await this.events.entry(tx, principal, 'updated', entry);
      return entry;
    });
  }

  async remove(principal: Principal, entryId: number): Promise<void> {
    const { teamId } = await requireEntry(this.db, principal, entryId);
    await this.db.transaction(async (tx) => {
      const row = await repo.deleteEntry(tx, teamId, entryId);
      if (!row) throw errors.notFound('financial entry');
      await this.events.entry(tx, principal, 'deleted', entryView(row));
    });
  }
}
