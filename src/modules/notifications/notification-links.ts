import type { NotificationKind } from '../../db/schema/index.ts';

type Data = Record<string, unknown>;

/** The API path a client opens for a notification of `kind` with `data`. */
export function notificationLink(kind: NotificationKind, data: Data): string {
  switch (kind) {
    case 'mention':
      return data.threadId === undefined
        ? `/api/v1/tracks/${data.trackId}/versions/${data.versionId}/comments`
        : `/api/v1/chat/threads/${data.threadId}/messages`;
    case 'comment':
    case 'reply':
    case 'comment_resolved':
      return `/api/v1/tracks/${data.trackId}/versions/${data.versionId}/comments`;
    case 'review_requested':
    case 'review_decided':
      return `/api/v1/tracks/${data.trackId}/versions/${data.versionId}`;
    case 'team_invite':
      return '/api/v1/inbox/';
    case 'session_invitation':
      return `/api/v1/sessions/${data.sessionId}`;
    case 'follow_up_due':
      return `/api/v1/chat/bots/${data.botId}/follow-ups`;
    case 'camp_rsvp':
      return `/api/v1/organisations/${data.organisationId}/camps/${data.campId}`;
    case 'webhook_paused':
      return `/api/v1/webhooks/${data.endpointId}/deliveries`;
  }
}

/** The line a push shows for a notification (the app opens `link` for the rest). */
export function notificationTitle(kind: NotificationKind, actorName: string | null, data: Data): string {
  const who = actorName ?? 'Someone';
  switch (kind) {
    case 'mention':
      return `${who} mentioned you`;
    case 'comment':
      return `${who} commented on your track`;
    case 'reply':
      return `${who} replied to your comment`;
    case 'comment_resolved':
      return `${who} resolved your comment`;
    case 'review_requested':
      return `${who} asked for your review`;
    case 'review_decided':
      return data.decision === 'approved' ? `${who} approved your version` : `${who} asked for changes`;
    case 'team_invite':
      return `${who} invited you to a team`;
    case 'session_invitation':
      return `${who} invited you to a studio session`;
    case 'follow_up_due':
      return 'A follow-up is due';
    case 'camp_rsvp':
      return `${who} answered a camp`;
    case 'webhook_paused':
      return 'A webhook endpoint was paused';
  }
}
