import { Type } from '@sinclair/typebox';
import { Uuid } from '../../shared/schemas.ts';

/** `{threadId}` of every thread route. */
export const ThreadParams = Type.Object({ threadId: Uuid });

/** Ids and times the examples of the area share, so the examples of one answer tell one consistent story. */
export const CHAT_EXAMPLE = {
  teamId: 7,
  threadId: '0193a5f3-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  messageId: '0193a5f3-2b3c-7d4e-9f50-6b7c8d9e0f1a',
  voiceMessageId: '0193a5f3-3c4d-7e5f-8a61-7c8d9e0f1a2b',
  authorId: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
  memberId: '0193a5f2-7d2f-7c4b-8a21-4d3e5f6a7b8c',
  createdAt: '2026-03-14T09:30:00.000Z',
  sentAt: '2026-03-14T09:41:12.000Z',
} as const;

/** Mentions of the examples: a person and a track. */
export const EXAMPLE_CONTENT =
  '@[Maya Reyes](user:0193a5f2-7d2f-7c4b-8a21-4d3e5f6a7b8c) the new mix of @[Night Drive](track:101) is up';

/** The message of the examples, as the thread list and the message list show it. */
export const MESSAGE_EXAMPLE = {
  id: CHAT_EXAMPLE.messageId,
  threadId: CHAT_EXAMPLE.threadId,
  authorId: CHAT_EXAMPLE.authorId,
  botId: null,
  content: EXAMPLE_CONTENT,
  createdAt: CHAT_EXAMPLE.sentAt,
  editedAt: null,
  deleted: false,
  reactions: [{ emoji: '🔥', count: 2, me: true }],
  mentions: [
    { kind: 'user', id: CHAT_EXAMPLE.memberId, label: 'Maya Reyes' },
    { kind: 'track', id: '101', label: 'Night Drive' },
  ],
};
