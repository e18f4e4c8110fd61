import type { PositionConsumer } from '../../events/event-consumers.ts';
import type { Clock } from '../../shared/clock.ts';
import { fanOutEvents } from './deliveries.repository.ts';
import { WEBHOOK_EVENT_TYPES } from './event-types.ts';

const isWebhookType = (type: string) => Object.hasOwn(WEBHOOK_EVENT_TYPES, type);

/**
 * The reader of the log that turns each committed event of a webhook type into its first attempts (one per
 * endpoint of its owner that takes it) and the runs that send them, in the transaction that moves its position
 * past them: each event is fanned out once, across processes and crashes.
 */
export function webhooksFromEvents(clock: Clock): PositionConsumer {
  return {
    name: 'webhooks',
    batch: 500,
    handle: async (tx, events) => {
      const ids = events
        .filter((e) => isWebhookType(e.type) && (e.teamId !== null || e.organisationId !== null))
        .map((e) => e.id);
      await fanOutEvents(tx, ids, clock.now());
    },
  };
}
