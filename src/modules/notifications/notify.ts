import type { Db } from '../../db/client.ts';
import type { NotificationKind } from '../../db/schema/index.ts';
import { writeEvents } from '../../events/event-log.ts';
import { withDefaults } from '../users/preferences.ts';
import { notificationTitle } from './notification-links.ts';
import { type ActivityFact, NOTIFICATION_RULES, type NotificationDraft } from './notification-rules.ts';
import { insertNotifications, recipientsOf, userName } from './notifications.repository.ts';
import { notificationView } from './notifications.view.ts';
import { enqueuePush } from './push/push.ts';

/** The preference that turns each kind of notification on or off. */
const PREFERENCE_OF = {
  mention: 'notifyOnMentions',
  comment: 'notifyOnComments',
  reply: 'notifyOnComments',
  comment_resolved: 'notifyOnComments',
  review_requested: 'notifyOnReviews',
  review_decided: 'notifyOnReviews',
  team_invite: 'notifyOnInvites',
  session_invitation: 'notifyOnSessions',
  follow_up_due: 'notifyOnFollowUps',
  camp_rsvp: 'notifyOnCampRsvps',
  // A right that ended is news an admin cannot turn off.
  webhook_paused: null,
} as const satisfies Record<NotificationKind, string | null>;

/** Tells the people an activity entry concerns, in the transaction that records it. */
export async function notifyFromActivity(tx: Db, fact: ActivityFact): Promise<void> {
  const rule = NOTIFICATION_RULES.get(`${fact.subjectType}/${fact.action}`);
  if (rule) await deliverNotifications(tx, await rule(tx, fact));
}

/**
 * Writes the drafts that may be delivered (never to the actor, to an account being deleted, against the
 * person's preferences, or about a team or organisation they are not in), once per person and key, and tells
 * each person on the real-time stream. Answers the notifications written.
 */
export async function deliverNotifications(tx: Db, drafts: NotificationDraft[], now?: Date) {
  const wanted = drafts.filter((d) => d.userId !== d.actorUserId);
  if (wanted.length === 0) return [];
  const { people, teams, organisations } = await recipientsOf(tx, wanted);
  const seen = new Set<string>();
  const allowed = wanted.filter((d) => {
    const person = people.get(d.userId);
    const once = `${d.userId} ${d.dedupeKey}`;
    if (!person || seen.has(once)) return false;
    seen.add(once);
    const preference = PREFERENCE_OF[d.kind];
    if (preference !== null && !withDefaults(person.preferences)[preference]) return false;
    if (d.teamId !== null && !teams.has(`${d.userId}:${d.teamId}`)) return false;
    return d.organisationId === null || organisations.has(`${d.userId}:${d.organisationId}`);
  });
  const rows = await insertNotifications(tx, allowed, now);
  if (rows.length === 0) return rows;
  const names = new Map<string | null, string | null>();
  for (const row of rows) {
    if (!names.has(row.actorUserId)) names.set(row.actorUserId, await userName(tx, row.actorUserId));
  }
  const views = rows.map((row) =>
    notificationView({ ...row, actorName: names.get(row.actorUserId) ?? null }),
  );
  for (const [i, row] of rows.entries()) {
    if (!withDefaults(people.get(row.userId)!.preferences).pushNotifications) continue;
    const view = views[i]!;
    await enqueuePush(tx, {
      userId: row.userId,
      title: notificationTitle(row.kind, view.actor?.name ?? null, row.data),
      body: '',
      data: { notificationId: String(row.id), kind: row.kind, link: view.link },
    });
  }
  // Written past the log's consumers: nothing else reads a notification's own event.
  await writeEvents(
    tx,
    views.map((view, i) => ({
      type: 'notification.created',
      subject: { type: 'notification', id: rows[i]!.id },
      payload: { notification: view },
      stream: { type: 'notification.created', recipients: [rows[i]!.userId] },
    })),
    rows[0]!.createdAt,
  );
  return rows;
}
