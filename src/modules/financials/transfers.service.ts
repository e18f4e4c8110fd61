import { Readable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import { requireTeamContacts } from '../contacts/team-contacts.ts';
import { type EntryInput, newEntryValues } from './entry-input.ts';
import { type DateRange, dateRangeOf, today } from './entry-query.ts';
import { EXPORT_WRITERS } from './export-formats.ts';
import type { FinancialEvents } from './financial-events.ts';
import * as repo from './financials.repository.ts';
import type { ExportFormat } from './financials.schemas.ts';

/** Rows an export reads per query: it holds at most two batches, whatever the team holds. */
export const EXPORT_BATCH = 1000;
/**
 * Rows per INSERT of an import (about half a megabyte at the longest descriptions): the embedded database
 * runs each statement on the process's own thread, so one statement must stay short, and other requests
 * are served before each (the first waits, too, after reading and validating the body).
 */
export const IMPORT_BATCH = 250;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The batches from `first` on (keyset, newest first). The next batch is asked for while the current one is
 * written, so the database and the client work at the same time; at most two batches are held.
 */
async function* batchesFrom(db: Db, filter: repo.EntryFilter, first: repo.EntryRow[]) {
  let batch = first;
  while (batch.length > 0) {
    const next =
      batch.length < EXPORT_BATCH
        ? undefined
        : repo.listEntries(db, filter, repo.keyOf(batch.at(-1)!), EXPORT_BATCH);
    // A client that leaves early never awaits `next`: its failure must not become an unhandled rejection.
    next?.catch(() => undefined);
    yield batch;
    if (!next) return;
    batch = await next;
  }
}

function fileName(teamId: number, range: DateRange, format: ExportFormat): string {
  const dates = [range.from ?? '', range.to ?? ''].join('_');
  return `financials-team-${teamId}${dates === '_' ? '' : `-${dates}`}.${format}`;
}

/** Entries in and out in bulk: the streamed export and the all-or-nothing import. */
export class FinancialTransfersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: FinancialEvents,
  ) {}

  /**
   * The team's entries in `format`, newest first, as a stream that reads one batch at a time as the client
   * takes it. The first batch is read before answering, so a failure to read shows as an error answer
   * rather than a cut-off file. Entries changed while the export runs may or may not be in it.
   */
  async export(
    principal: Principal,
    query: DateRange & { teamId: number; format?: ExportFormat | undefined },
  ) {
    await requireTeam(this.db, principal, query.teamId);
    const range = dateRangeOf(query);
    const format = query.format ?? 'csv';
    const filter = { teamId: query.teamId, ...range };
    const first = await repo.listEntries(this.db, filter, undefined, EXPORT_BATCH);
    const writer = EXPORT_WRITERS[format];
    return {
      contentType: writer.contentType,
      fileName: fileName(query.teamId, range, format),
      body: Readable.from(writer.chunks(batchesFrom(this.db, filter, first)), { objectMode: false }),
    };
  }

  /** Creates every entry or none, in one transaction, a batch of rows per statement; one event for the import. */
  async import(principal: Principal, input: { teamId: number; entries: EntryInput[] }) {
    const { teamId } = input;
    await requireTeam(this.db, principal, teamId);
    const now = this.clock.now();
    const values = input.entries.map((entry) => newEntryValues(entry, today(now)));
    const stamps = { teamId, actor: actorOf(principal), now };
    return this.db.transaction(async (tx) => {
      await requireTeamContacts(
        tx,
        teamId,
        input.entries.map((entry, i) => [`/body/entries/${i}/contactId`, entry.contactId]),
      );
      const ids: number[] = [];
      for (let start = 0; start < values.length; start += IMPORT_BATCH) {
        await nextTurn();
        ids.push(...(await repo.insertEntryBatch(tx, values.slice(start, start + IMPORT_BATCH), stamps)));
      }
      ids.sort((a, b) => a - b);
      await this.events.imported(tx, principal, teamId, ids);
      return { imported: ids.length, ids };
    });
  }
}
