import type { Static, TSchema } from '@sinclair/typebox';
import type { Db } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventInput, EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';

/** An event of a team's, made by `principal`: what `EventLog.record` takes for a change of the catalogue. */
export function teamEvent(
  principal: Principal,
  teamId: number,
  type: string,
  subject: EventInput['subject'],
  payload: Record<string, unknown>,
): EventInput {
  return { type, subject, actor: actorOf(principal), teamId, payload };
}

type EventCatalogue = Record<string, { schema: TSchema }>;
type PayloadOf<E extends EventCatalogue, T extends keyof E> = Static<E[T]['schema']> & { teamId: number };

/**
 * How a service of the catalogue records the events of one kind of subject: `record(tx, principal, type,
 * payload)`, the payload typed by the event type, about the subject `subjectIdOf` names, for its team.
 */
export function teamEventRecorder<E extends EventCatalogue>(
  events: EventLog,
  subjectType: string,
  subjectIdOf: (payload: PayloadOf<E, keyof E>) => number,
) {
  return <T extends keyof E & string>(tx: Db, principal: Principal, type: T, payload: PayloadOf<E, T>) =>
    events.record(
      tx,
      teamEvent(principal, payload.teamId, type, { type: subjectType, id: subjectIdOf(payload) }, payload),
    );
}
