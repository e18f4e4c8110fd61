import { actorOf } from '../../events/actor.ts';
import type { EventInput } from '../../events/event-log.ts';
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
