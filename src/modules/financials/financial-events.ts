import type { DbTransaction } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { activityRecorder, recordActivityBy } from '../activity/activity.ts';
import type { WebhookOutbox } from '../webhooks/outbox.ts';
import type { EntryView } from './entry-view.ts';

export type EntryChange = 'created' | 'updated' | 'deleted';

const recordActivity = activityRecorder('financial_entry');

/**
 * What every change of the area leaves behind, in the transaction of the change: an activity entry and the
 * webhook event, so both exist exactly when the change committed.
 */
export class FinancialEvents {
  constructor(private readonly outbox: WebhookOutbox) {}

  /** One entry created, changed or deleted; the event carries the entry (as it was, for a deletion). */
  async entry(
    tx: DbTransaction,
    principal: Principal,
    change: EntryChange,
    entry: EntryView,
    activity?: Record<string, unknown>,
  ): Promise<void> {
    await recordActivity(tx, principal, entry.teamId, `financial_entry.${change}`, entry.id, activity);
    await this.outbox.record(tx, { teamId: entry.teamId, type: `financial.entry.${change}`, data: entry });
  }

  /** A whole import: one activity entry and one event, however many entries it made. */
  async imported(tx: DbTransaction, principal: Principal, teamId: number, ids: number[]): Promise<void> {
    await recordActivityBy(tx, principal, {
      teamId,
      action: 'financial_entries.imported',
      subjectType: 'team',
      subjectId: teamId,
      data: { count: ids.length, firstId: ids[0], lastId: ids.at(-1) },
    });
    await this.outbox.record(tx, {
      teamId,
      type: 'financial.import.completed',
      data: { teamId, count: ids.length },
    });
  }
}
