import { Type } from '@sinclair/typebox';
import { NOTIFICATION_KINDS } from '../../db/schema/index.ts';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

export const NotificationId = Type.Integer({
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'Notification id',
});

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const NotificationActor = Type.Object(
  { id: Uuid, name: Nullable(Type.String()) },
  { title: 'NotificationActor', description: 'Who caused it' },
);

export const Notification = Type.Object(
  {
    id: NotificationId,
    kind: StringEnum([...NOTIFICATION_KINDS], {
      description:
        'mention (in chat or a track comment), comment (on your track), reply (to your comment), review_requested (of you), ' +
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
  { title: 'Notification' },
);

export const UnreadNotifications = Type.Object(
  {
    items: Type.Array(Notification, { description: 'The newest unread notifications, at most `limit`' }),
    unreadCount: Type.Integer({ minimum: 0, description: 'All unread notifications' }),
  },
  { title: 'UnreadNotifications' },
);

export const UnreadQuery = Type.Object({ limit: PageQuery.limit });
export const FeedQuery = Type.Object(PageQuery);
export const NotificationFeed = Page(Notification);

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
  },
);

export const MarkReadResult = Type.Object(
  {
    marked: Type.Integer({ minimum: 0, description: 'Notifications that were unread and are read now' }),
    unreadCount: Type.Integer({ minimum: 0, description: 'Unread notifications left' }),
  },
  { title: 'NotificationsMarkReadResult' },
);
