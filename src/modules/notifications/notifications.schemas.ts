import { Type } from '@sinclair/typebox';
import { NOTIFICATION_KINDS } from '../../db/schema/index.ts';
import { CountedPage, CountQuery, Id, PageQuery, Timestamp, Total, Uuid } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

export const NotificationId = Type.Integer({
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'Notification id',
});

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const ACTOR_EXAMPLE = { id: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b', name: 'Luna Vale' };

const NotificationActor = Type.Object(
  { id: Uuid, name: Nullable(Type.String()) },
  { title: 'NotificationActor', description: 'Who caused it', examples: [ACTOR_EXAMPLE] },
);

const NOTIFICATION_EXAMPLE = {
  id: 9001,
  kind: 'mention',
  teamId: 7,
  organisationId: null,
  actor: ACTOR_EXAMPLE,
  subjectType: 'chat_message',
  subjectId: '0193a5f3-2b3c-7d4e-9f50-6b7c8d9e0f1a',
  data: {
    threadId: '0193a5f3-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
    messageId: '0193a5f3-2b3c-7d4e-9f50-6b7c8d9e0f1a',
  },
  link: '/api/v1/chat/threads/0193a5f3-1a2b-7c3d-8e4f-5a6b7c8d9e0f/messages',
  read: false,
  readAt: null,
  createdAt: '2026-03-14T09:41:12.000Z',
};

export const Notification = Type.Object(
  {
    id: NotificationId,
    kind: StringEnum([...NOTIFICATION_KINDS], {
      description:
        'mention (in chat or a track comment), comment (on your track), reply (to your comment), comment_resolved (your comment, by someone else), review_requested (of you), ' +
        'review_decided (on a review you asked for), team_invite, session_invitation, follow_up_due, ' +
        'camp_rsvp (an answer to a camp of an organisation you manage), webhook_paused (a webhook endpoint ' +
        'of a team or organisation you own or administer was paused)',
    }),
    teamId: Nullable(Id),
    organisationId: Nullable(Id),
    actor: Nullable(NotificationActor),
    subjectType: Type.String({
      description: 'What the notification is about: comment, review, chat_message, …',
    }),
    subjectId: Type.String(),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The ids a client needs (trackId, versionId, threadId, messageId, sessionId, …); no free text',
    }),
    link: Type.String({ description: 'The API path that shows the subject' }),
    read: Type.Boolean(),
    readAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  { title: 'Notification', examples: [NOTIFICATION_EXAMPLE] },
);

export const UnreadNotifications = Type.Object(
  {
    items: Type.Array(Notification, { description: 'Unread notifications, newest first, at most `limit`' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'The next page of unread ones: pass it as cursor',
    }),
    unreadCount: Type.Integer({ minimum: 0, description: 'All unread notifications' }),
    total: Total,
  },
  {
    title: 'UnreadNotifications',
    examples: [{ items: [NOTIFICATION_EXAMPLE], nextCursor: null, unreadCount: 1 }],
  },
);

export const UnreadQuery = Type.Object({ ...PageQuery, ...CountQuery });
export const FeedQuery = Type.Object({ ...PageQuery, ...CountQuery });
export const NotificationFeed = CountedPage(Notification);

export const MarkReadBody = Type.Union(
  [
    Type.Object(
      { ids: Type.Array(NotificationId, { minItems: 1, maxItems: 500, uniqueItems: true }) },
      { additionalProperties: false },
    ),
    Type.Object({ all: Type.Literal(true) }, { additionalProperties: false }),
  ],
  {
    title: 'NotificationsMarkRead',
    description: '`{ids}` marks those of your notifications read; `{all: true}` marks every one',
    examples: [{ ids: [9001, 9002] }],
  },
);

export const MarkReadResult = Type.Object(
  {
    marked: Type.Integer({ minimum: 0, description: 'Notifications that were unread and are read now' }),
    unreadCount: Type.Integer({ minimum: 0, description: 'Unread notifications left' }),
  },
  { title: 'NotificationsMarkReadResult', examples: [{ marked: 2, unreadCount: 1 }] },
);
