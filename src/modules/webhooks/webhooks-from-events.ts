import type { DbTransaction } from '../../db/client.ts';
import type { InTransactionConsumer } from '../../events/event-log.ts';
import { WEBHOOK_EVENT_TYPES } from './event-types.ts';
import type { WebhookOutbox } from './outbox.ts';

const isWebhookType = (type: string) => Object.hasOwn(WEBHOOK_EVENT_TYPES, type);

/**
 * Hands every event of a webhook type to the outbox of its owner (its team, else its organisation); `data`
 * is the event's payload.
 */
export function webhooksFromEvents(outbox: WebhookOutbox): InTransactionConsumer {
  return async (tx, events) => {
    for (const event of events) {
      if (!isWebhookType(event.type)) continue;
      const owner =
        event.teamId !== null
          ? { teamId: event.teamId }
          : event.organisationId !== null
            ? { organisationId: event.organisationId }
            : undefined;
      if (!owner) continue;
      // Events are recorded inside the transaction of their change.
      await outbox.record(tx as DbTransaction, { ...owner, type: event.type, data: event.payload });
    }
  };
}
