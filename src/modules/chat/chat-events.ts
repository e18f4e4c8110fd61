import type { EventInput, StreamRoute } from '../../events/event-log.ts';

export type ChatSubject = 'chat_thread' | 'chat_message' | 'follow_up_task';

/**
 * The events of one chat change, to record together: one per team of its thread, so that a thread shared by
 * two teams shows in both teams' records, and only the first carries the stream route, so that the stream
 * tells the change once. `actorUserId` is null for a bot.
 */
export function chatEvents(change: {
  actorUserId: string | null;
  teamIds: readonly number[];
  subjectType: ChatSubject;
  subjectId: string;
  type: string;
  payload?: Record<string, unknown>;
  stream?: StreamRoute;
}): EventInput[] {
  const teamIds = change.teamIds.length > 0 ? change.teamIds : [null];
  return teamIds.map((teamId, i) => ({
    type: change.type,
    subject: { type: change.subjectType, id: change.subjectId },
    actor: { actorUserId: change.actorUserId, actorKeyId: null },
    teamId,
    payload: change.payload ?? {},
    ...(i === 0 && change.stream ? { stream: change.stream } : {}),
  }));
}
