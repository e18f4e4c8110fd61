import type { MessageView } from '../messages/message-view.ts';
import type { ThreadListRow } from './threads.repository.ts';

/** A thread as its caller sees it. */
export type ThreadView = ReturnType<typeof threadView>;

export function threadView(row: ThreadListRow, lastMessage: MessageView | null) {
  return {
    ...threadEventView(row),
    lastMessageAt: row.lastMessageAt,
    lastMessage,
    unreadCount: row.unreadCount,
    pinned: row.pinned,
  };
}

/** A thread as events carry it to everyone: without what differs per person. */
export function threadEventView(
  row: Pick<
    ThreadListRow,
    'id' | 'type' | 'name' | 'teamIds' | 'memberIds' | 'botId' | 'createdBy' | 'createdAt' | 'updatedAt'
  >,
) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    teamIds: row.teamIds,
    memberIds: row.memberIds,
    botId: row.botId,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
