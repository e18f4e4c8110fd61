import type { DbTransaction } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';

export type OutboxEvent = ({ teamId: number } | { organisationId: number }) & { type: string; data: unknown };

/**
 * The former webhook outbox, kept only while write sites still call it: each record is now one event of the
 * log (payload = `data`), which the webhooks reader of the log fans out. Write sites record their events with
 * the EventLog instead; this goes once none calls it.
 */
export class WebhookOutbox {
  constructor(private readonly events: EventLog) {}

  /** Records the event in the caller's transaction; answers its id (the webhook-id of its deliveries). */
  async record(tx: DbTransaction, event: OutboxEvent): Promise<string> {
    const owner = 'teamId' in event ? { teamId: event.teamId } : { organisationId: event.organisationId };
    const data = (event.data ?? {}) as Record<string, unknown>;
    const [recorded] = await this.events.record(tx, {
      type: event.type,
      subject: { type: 'webhook_event', id: String(data.id ?? '') },
      ...owner,
      payload: data,
    });
    return (recorded as { id: string }).id;
  }
}
