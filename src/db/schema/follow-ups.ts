import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { stamp, timestamps } from './columns.ts';
import { contacts } from './contacts.ts';
import { users } from './identity.ts';
import { teams } from './teams.ts';

export const FOLLOW_UP_STATUSES = ['open', 'done', 'cancelled'] as const;
export type FollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];

/**
 * A follow-up task a bot took from a user's message ("remind me to follow up with Maya on Instagram
 * next Friday"): the user's, within one team; organisations roll them up over their teams.
 */
export const followUpTasks = pgTable(
  'follow_up_tasks',
  {
    id: uuid().primaryKey(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    botId: text().notNull(),
    /** The message the task was read from, when it came from chat. */
    sourceMessageId: uuid(),
    person: text().notNull(),
    network: text(),
    /** A contact of the team the person was matched to, if any. */
    contactId: integer().references(() => contacts.id, { onDelete: 'set null' }),
    dueAt: stamp(),
    note: text(),
    status: text().$type<FollowUpStatus>().notNull().default('open'),
    completedAt: stamp(),
    ...timestamps(),
  },
  (t) => [
    index('follow_up_tasks_user_idx').on(t.teamId, t.userId, t.botId, t.createdAt.desc(), t.id.desc()),
    index('follow_up_tasks_due_idx').on(t.teamId, t.dueAt).where(sql`${t.status} = 'open'`),
    // A person's due tasks (the inbox), and every task falling due (their notifications).
    index('follow_up_tasks_user_due_idx').on(t.userId, t.dueAt).where(sql`${t.status} = 'open'`),
    index('follow_up_tasks_open_due_idx').on(t.dueAt).where(sql`${t.status} = 'open'`),
    check('follow_up_tasks_status', sql`${t.status} in ('open', 'done', 'cancelled')`),
  ],
);
