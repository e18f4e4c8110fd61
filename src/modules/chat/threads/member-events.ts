import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import { chatEvents } from '../chat-events.ts';

/** `member.added` for each person who became a member (`member_added` in the thread's record). */
export async function membersAdded(
  events: EventLog,
  tx: Db,
  thread: { id: string; teamIds: number[] },
  by: string,
  added: string[],
): Promise<void> {
  await events.record(
    tx,
    added.flatMap((userId) =>
      chatEvents({
        actorUserId: by,
        teamIds: thread.teamIds,
        subjectType: 'chat_thread',
        subjectId: thread.id,
        type: 'member_added',
        payload: { userId, by },
        stream: { type: 'member.added', threadId: thread.id },
      }),
    ),
  );
}

/**
 * `member.removed` (`reason`: left or removed), told to the person too, who no longer sees the thread
 * (`member_left` or `member_removed` in the thread's record).
 */
export async function memberRemoved(
  events: EventLog,
  tx: Db,
  thread: { id: string; teamIds: number[] },
  by: string,
  userId: string,
  reason: 'left' | 'removed',
): Promise<void> {
  await events.record(
    tx,
    chatEvents({
      actorUserId: by,
      teamIds: thread.teamIds,
      subjectType: 'chat_thread',
      subjectId: thread.id,
      type: reason === 'left' ? 'member_left' : 'member_removed',
      payload: { userId, by, reason },
      stream: { type: 'member.removed', threadId: thread.id, recipients: [userId] },
    }),
  );
}
