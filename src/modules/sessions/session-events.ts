import type { Db } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import { type Booking, bookingEvents } from './booking-events.ts';
import type { SessionStreamType } from './session-stream.ts';

/** A change of a session or of something in it, named as its event is (`session.<change>`). */
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

/** The name on the real-time stream of each change shown there. */
const STREAM_TYPE_OF: Partial<Record<SessionChange, SessionStreamType>> = {
  'participant.invited': 'session.participant.added',
  'participant.joined': 'session.participant.added',
  'participant.responded': 'session.participant.updated',
  'participant.removed': 'session.participant.removed',
  'marker.created': 'session.marker.created',
  'marker.updated': 'session.marker.updated',
  'marker.deleted': 'session.marker.deleted',
  'canvas.updated': 'session.canvas.updated',
};

/**
 * What every change of the area leaves behind, in the transaction of the change: its event in the log (on the
 * real-time stream for participants, markers and the canvas, session-stream.ts) and, for bookings, the events
 * of the webhook types.
 */
export class SessionEvents {
  constructor(private readonly log: EventLog) {}

  async record(
    tx: Db,
    principal: Principal,
    session: { id: number; teamId: number },
    change: SessionChange,
    data?: Record<string, unknown>,
    /** People to tell on the stream besides those who may read the session. */
    recipients: string[] = [],
  ): Promise<void> {
    const streamType = STREAM_TYPE_OF[change];
    await this.log.record(tx, {
      type: `session.${change}`,
      subject: { type: 'session', id: session.id },
      actor: actorOf(principal),
      teamId: session.teamId,
      payload: data ?? {},
      ...(streamType ? { stream: { type: streamType, sessionId: session.id, recipients } } : {}),
    });
  }

  /**
   * The booking events of a session whose booking went from `before` to `after` (see bookingEvents): one per
   * owner, the team's or the organisation's, of the webhook type with the webhook's data.
   */
  async booking(tx: Db, principal: Principal, before: Booking | null, after: Booking | null): Promise<void> {
    await this.log.record(
      tx,
      bookingEvents(before, after).map((event) => ({
        type: event.type,
        subject: { type: 'session', id: event.data.id },
        actor: actorOf(principal),
        ...event.owner,
        payload: event.data,
      })),
    );
  }
}
