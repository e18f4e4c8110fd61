import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { stamp } from './columns.ts';
import { users } from './identity.ts';
import { organisations } from './organisations.ts';
import { teams } from './teams.ts';

export const NOTIFICATION_KINDS = [
  'mention',
  'comment',
  'reply',
  'comment_resolved',
  'review_requested',
  'review_decided',
  'team_invite',
  'session_invitation',
  'follow_up_due',
  'camp_rsvp',
  'webhook_paused',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * What happened that concerns one person, derived from the activity log as it is written. A notification
 * about a team's content (`teamId`) or an organisation's (`organisationId`) is shown only while its person
 * still belongs there; one about the person themself (an invitation) has neither.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().$type<NotificationKind>().notNull(),
    teamId: integer().references(() => teams.id, { onDelete: 'cascade' }),
    organisationId: integer().references(() => organisations.id, { onDelete: 'cascade' }),
    actorUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    subjectType: text().notNull(),
    subjectId: text().notNull(),
    /** Ids a client needs to open the subject; never free text of the subject. */
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** One notification per person and key: a subject recorded in several teams' activity notifies once. */
    dedupeKey: text().notNull(),
    createdAt: stamp().notNull().defaultNow(),
    readAt: stamp(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id.desc()),
    index('notifications_unread_idx').on(t.userId, t.id.desc()).where(sql`${t.readAt} is null`),
    uniqueIndex('notifications_dedupe_unique').on(t.userId, t.dedupeKey),
    check('notifications_kind', sql.raw(`kind in (${NOTIFICATION_KINDS.map((k) => `'${k}'`).join(', ')})`)),
  ],
);
