import type { Db } from '../../db/client.ts';
import { recordActivity } from '../activity/activity.ts';

export type ChatActivitySubject = 'chat_thread' | 'chat_message' | 'follow_up_task';

/**
 * Records a chat write in the activity of every team of its thread (a thread shared by two teams shows in
 * both feeds). `actorUserId` is null for a bot. Data carries ids only, never message text.
 */
export async function recordChatActivity(
  tx: Db,
  entry: {
    actorUserId: string | null;
    teamIds: readonly number[];
    subjectType: ChatActivitySubject;
    subjectId: string;
    action: string;
    data?: Record<string, unknown>;
  },
): Promise<void> {
  for (const teamId of entry.teamIds) {
    await recordActivity(tx, {
      actorUserId: entry.actorUserId,
      actorKeyId: null,
      teamId,
      action: entry.action,
      subjectType: entry.subjectType,
      subjectId: entry.subjectId,
      ...(entry.data ? { data: entry.data } : {}),
    });
  }
}
