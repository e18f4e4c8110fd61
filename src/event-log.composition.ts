import { EventLog } from './events/event-log.ts';
import { notificationsFromEvents } from './modules/notifications/notifications-from-events.ts';
import type { Clock } from './shared/clock.ts';

/**
 * The one log of changes with what reads it in the writing transaction (notifications). Composed here, apart
 * from the services, so the command line records changes the same way without loading the whole app; the
 * readers that keep a position (webhook deliveries) are composed in services.ts.
 */
export function createEventLog(clock: Clock): EventLog {
  return new EventLog(clock, [notificationsFromEvents]);
}
