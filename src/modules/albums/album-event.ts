import type { EventInput } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import { teamEvent } from '../tracks/team-event.ts';

/** An event about an album (or, for a board reorder, a status column) of the team, made by `principal`. */
export function albumEvent(
  principal: Principal,
  teamId: number,
  type: string,
  subjectId: number | string,
  payload: Record<string, unknown> = {},
): EventInput {
  return teamEvent(principal, teamId, type, { type: 'album', id: subjectId }, payload);
}
