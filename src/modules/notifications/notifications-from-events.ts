import type { InTransactionConsumer } from '../../events/event-log.ts';
import { notifyFromActivity } from './notify.ts';

/** Tells the people each event concerns, in the transaction that records it (notification-rules.ts). */
export const notificationsFromEvents: InTransactionConsumer = async (tx, events) => {
  for (const event of events) {
    await notifyFromActivity(tx, {
      teamId: event.teamId,
      organisationId: event.organisationId,
      actorUserId: event.actorUserId,
      action: event.type,
      subjectType: event.subjectType,
      subjectId: event.subjectId,
      data: event.payload,
    });
  }
};
