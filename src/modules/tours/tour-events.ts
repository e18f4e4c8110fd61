import { actorOf } from '../../events/actor.ts';
import type { EventInput } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';

/** The event of one change of a tour (its fields or its covers), done by `principal`. */
export const tourEvent = (
  principal: Principal,
  teamId: number,
  type: string,
  tourId: number,
  payload: Record<string, unknown>,
): EventInput => ({
  type,
  subject: { type: 'tour', id: tourId },
  actor: actorOf(principal),
  teamId,
  payload,
});
