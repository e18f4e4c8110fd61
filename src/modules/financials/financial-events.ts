import type { DbTransaction } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { EntryView } from './entry-view.ts';

export type EntryChange = 'created' | 'updated' | 'deleted';

/**
 * The one event every change of the area records, in the transaction of the change: its type is the webhook
 * type and its payload the webhook `data`, so the team's endpoints get it exactly when the change committed.
 */
export class FinancialEvents {
  constructor(private readonly events: EventLog) {}

  /** One entry created, changed or deleted; the event carries the entry (as it was, for a deletion). */
  async entry(tx: DbTransaction, principal: Principal, change: EntryChange, entry: EntryView): Promise<void> {
    await this.events.record(tx, {
      type: `financial.entry.${change}`,
      subject: { type: 'financial_entry', id: entry.id },
      actor: actorOf(principal),
      teamId: entry.teamId,
      payload: entry,
    });
  }

  /** A whole import: one event, however many entries it made. */
  async imported(tx: DbTransaction, principal: Principal, teamId: number, ids: number[]): Promise<void> {
    await this.events.record(tx, {
      type: 'financial.import.completed',
      subject: { type: 'team', id: teamId },
      actor: actorOf(principal),
      teamId,
      payload: { teamId, count: ids.length },
    });
  }
}
