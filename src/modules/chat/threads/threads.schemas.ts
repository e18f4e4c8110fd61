import { Type } from '@sinclair/typebox';
import { CHAT_THREAD_TYPES } from '../../../db/schema/index.ts';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { CHAT_EXAMPLE, MESSAGE_EXAMPLE } from '../chat.schemas.ts';
import { Message } from '../messages/messages.schemas.ts';

export const MAX_THREAD_TEAMS = 20;
export const MAX_MEMBERS_PER_REQUEST = 200;

const ThreadName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const ThreadType = StringEnum(CHAT_THREAD_TYPES);

export const Thread = Type.Object(
  {
    id: Uuid,
    type: ThreadType,
    name: Type.Union([Type.String(), Type.Null()]),
    teamIds: Type.Array(Type.Integer()),
    memberIds: Type.Union([Type.Array(Uuid), Type.Null()], {
      description:
        'The chosen members of a group, direct or bot thread; null for a team thread (its teams’ members)',
    }),
    botId: Type.Union([Type.String(), Type.Null()]),
    createdBy: Type.Union([Uuid, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    lastMessageAt: Type.Union([Timestamp, Type.Null()]),
    lastMessage: Type.Union([Message, Type.Null()]),
    unreadCount: Type.Integer({
      minimum: 0,
      description: 'Messages of others after the caller’s read marker (deleted ones not counted)',
    }),
    pinned: Type.Boolean({ description: 'Pinned by the caller (pins are per person)' }),
  },
  {
    title: 'ChatThread',
    examples: [
      {
        id: CHAT_EXAMPLE.threadId,
        type: 'group',
        name: 'Night Drive mix notes',
        teamIds: [CHAT_EXAMPLE.teamId],
        memberIds: [CHAT_EXAMPLE.authorId, CHAT_EXAMPLE.memberId],
        botId: null,
        createdBy: CHAT_EXAMPLE.authorId,
        createdAt: CHAT_EXAMPLE.createdAt,
        updatedAt: CHAT_EXAMPLE.createdAt,
        lastMessageAt: CHAT_EXAMPLE.sentAt,
        lastMessage: MESSAGE_EXAMPLE,
        unreadCount: 0,
        pinned: true,
      },
    ],
  },
);

export const ThreadPage = Page(Thread);

export const ThreadListQuery = Type.Object({
  teamId: Type.Optional(Id),
  ...PageQuery,
});

export const CreateThreadBody = Type.Object(
  {
    name: Type.Optional(ThreadName),
    teamIds: Type.Array(Id, { minItems: 1, maxItems: MAX_THREAD_TEAMS }),
    type: ThreadType,
    memberIds: Type.Optional(
      Type.Array(Uuid, {
        maxItems: MAX_MEMBERS_PER_REQUEST,
        description:
          'Extension. group: the other members (each in one of teamIds); direct: exactly the one other person',
      }),
    ),
  },
  {
    title: 'ChatThreadCreate',
    examples: [
      {
        name: 'Night Drive mix notes',
        teamIds: [CHAT_EXAMPLE.teamId],
        type: 'group',
        memberIds: [CHAT_EXAMPLE.memberId],
      },
    ],
  },
);

export const PatchThreadBody = Type.Object(
  { name: ThreadName },
  { title: 'ChatThreadUpdate', examples: [{ name: 'Night Drive – final mix' }] },
);

export const MembersBody = Type.Object(
  { memberIds: Type.Array(Uuid, { minItems: 1, maxItems: MAX_MEMBERS_PER_REQUEST }) },
  { title: 'ChatThreadMembersAdd', examples: [{ memberIds: ['0193a5f2-8e30-7d5c-9b32-5e4f6a7b8c9d'] }] },
);

export const MemberParams = Type.Object({ threadId: Uuid, userId: Uuid });
