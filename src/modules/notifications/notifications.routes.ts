import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { countedPageOf } from '../../shared/pagination.ts';
import {
  FeedQuery,
  MarkReadBody,
  MarkReadResult,
  NotificationFeed,
  UnreadNotifications,
  UnreadQuery,
} from './notifications.schemas.ts';

const SOURCES =
  'Session token only (an API key gets 403 `session_required`). ' +
  'Notifications are made as things happen: a mention (`@[label](user:id)`) in chat or in a track comment, a comment on your track or a reply to your ' +
  'comment, a review asked of you or decided on one you asked for, a team invite to your address, a studio ' +
  'session invitation, a follow-up task falling due, an answer to a camp of an organisation you manage, a ' +
  'webhook endpoint of a team or organisation you own or administer being paused. ' +
  'Each kind can be turned off in your preferences (notifyOn…). Notifications about a team or organisation ' +
  'you no longer belong to are not shown. New ones also arrive on `GET /api/v1/chat/events` as ' +
  '`notification.created`, and by push to your devices when push is configured and pushNotifications is on.';

/** `user/notifications`, `user/notification-feed` and the mark-read extension. */
export async function notificationsRoutes(app: App) {
  const notifications = app.services.notifications;

  app.get(
    '/api/v1/user/notifications',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'user.notifications',
        summary: 'Your unread notifications, newest first and paged, with how many are unread',
        description: SOURCES,
        querystring: UnreadQuery,
        response: { 200: UnreadNotifications },
      },
    },
    async (request) => notifications.unread(principalOf(request), countedPageOf(request.query)),
  );

  app.get(
    '/api/v1/user/notification-feed',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'user.notificationFeed',
        summary: 'All your notifications, read and unread, newest first, paged',
        description: SOURCES,
        querystring: FeedQuery,
        response: { 200: NotificationFeed },
      },
    },
    async (request) => notifications.feed(principalOf(request), countedPageOf(request.query)),
  );

  app.post(
    '/api/v1/user/notifications/read',
    {
      config: { auth: auth.session, extension: true },
      schema: {
        operationId: 'user.markNotificationsRead',
        summary: 'Mark some or all of your notifications read',
        description:
          'Session token only (an API key gets 403 `session_required`). Ids that are not yours, or already ' +
          'read, are left alone (they count in neither `marked` nor an error). A body with both ids and ' +
          'all, or neither, is 400. Nothing is emitted.',
        body: MarkReadBody,
        response: { 200: MarkReadResult },
      },
    },
    async (request) => notifications.markRead(principalOf(request), request.body),
  );
}
