import { EventLog } from './events/event-log.ts';
import { notificationsFromEvents } from './modules/notifications/notifications-from-events.ts';
import { WebhookOutbox } from './modules/webhooks/outbox.ts';
import { webhooksFromEvents } from './modules/webhooks/webhooks-from-events.ts';
import type { Clock } from './shared/clock.ts';

/**
 * The one log of changes with what reads it in the writing transaction (notifications, webhook deliveries);
 * `outbox` is where those deliveries start. Composed here, apart from the services, so the command line
 * records changes the same way without loading the whole app.
 */
export function createEventLog(clock: Clock) {
  const outbox = new WebhookOutbox(clock);
  const events = new EventLog(clock, [notificationsFromEvents, webhooksFromEvents(outbox)]);
  return { events, outbox };
}
