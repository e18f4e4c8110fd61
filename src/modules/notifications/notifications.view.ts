import { notificationLink } from './notification-links.ts';
import type { NotificationRow } from './notifications.repository.ts';

export function notificationView(row: NotificationRow) {
  return {
    id: row.id,
    kind: row.kind,
    teamId: row.teamId,
    organisationId: row.organisationId,
    actor: row.actorUserId === null ? null : { id: row.actorUserId, name: row.actorName },
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    data: row.data,
    link: notificationLink(row.kind, row.data),
    read: row.readAt !== null,
    readAt: row.readAt,
    createdAt: row.createdAt,
  };
}
