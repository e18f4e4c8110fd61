import type { Db } from '../../../db/client.ts';
import { recordChatActivity } from '../chat-activity.ts';
import type { ChatEventLog } from '../events/event-log.ts';

/** `member.added` for each person who became a member, and the activity of it. */
export async function membersAdded(
  events: ChatEventLog,
  tx: Db,
  thread: { id: string; teamIds: number[] },
  by: string,
  added: string[],
): Promise<void> {
  if (added.length === 0) return;
  await events.write(
    tx,
    added.map((userId) => ({
      threadId: thread.id,
      type: 'member.added' as const,
      payload: { userId, by },
    })),
  );
  await recordChatActivity(tx, {
    actorUserId: by,
    teamIds: thread.teamIds,
    subjectType: 'chat_thread',
    subjectId: thread.id,
    action: 'member_added',
    data: { userIds: added },
  });
}

/**
 * `member.removed` (`reason`: left or removed), told to the person too, who no longer sees the thread, and
 * the activity of it.
 */
export async function memberRemoved(
  events: ChatEventLog,
  tx: Db,
  thread: { id: string; teamIds: number[] },
  by: string,
  userId: string,
  reason: 'left' | 'removed',
): Promise<void> {
  await events.write(tx, [
    {
      threadId: thread.id,
      type: 'member.removed',
      payload: { userId, by, reason },
      recipients: [userId],
    },
  ]);
  await recordChatActivity(tx, {
    actorUserId: by,
    teamIds: thread.teamIds,
    subjectType: 'chat_thread',
    subjectId: thread.id,
    action: reason === 'left' ? 'member_left' : 'member_removed',
    data: { userId },
  });
}
