import type { Db, DbTransaction } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { activityRecorder } from '../activity/activity.ts';
import type { ChatEventLog } from '../chat/events/event-log.ts';
import type { WebhookOutbox } from '../webhooks/outbox.ts';
import { type Booking, bookingEvents } from './booking-events.ts';
import { STREAM_TYPE_OF } from './session-stream.ts';

const recordActivity = activityRecorder('session');

/** A change of a session or of something in it, named as its activity entry is (`session.<change>`). */
export type SessionChange =
  | 'created'
  | 'updated'
  | 'deleted'
  | 'participant.invited'
  | 'participant.removed'
  | 'participant.responded'
  | 'participant.joined'
  | 'links.rotated'
  | 'file.added'
  | 'file.deleted'
  | 'song.added'
  | 'song.removed'
  | 'recording.registered'
  | 'recording.started'
  | 'recording.stopped'
  | 'marker.created'
  | 'marker.updated'
  | 'marker.deleted'
  | 'canvas.updated';

/**
 * What every change of the area leaves behind, in the transaction of the change: its activity entry, the
 * real-time stream's event for participants, markers and the canvas (session-stream.ts) and, for bookings,
 * the webhook events.
 */
export class SessionEvents {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly stream: ChatEventLog,
  ) {}

  async record(
    tx: Db,
    principal: Principal,
    session: { id: number; teamId: number },
    change: SessionChange,
    data?: Record<string, unknown>,
    /** People to tell on the stream besides those who may read the session. */
    recipients: string[] = [],
  ): Promise<void> {
    await recordActivity(tx, principal, session.teamId, `session.${change}`, session.id, data);
    const type = STREAM_TYPE_OF[change];
    if (type)
      await this.stream.write(tx, [
        {
          sessionId: session.id,
          type,
          payload: data ?? {},
          recipients: recipients.length > 0 ? recipients : undefined,
        },
      ]);
  }

  /** The booking events of a session whose booking went from `before` to `after` (see bookingEvents). */
  async booking(tx: Db, before: Booking | null, after: Booking | null): Promise<void> {
    for (const event of bookingEvents(before, after)) {
      // Always called inside a transaction (the files area's transactions hand it out typed as Db).
      await this.outbox.record(tx as DbTransaction, { ...event.owner, type: event.type, data: event.data });
    }
  }
}
