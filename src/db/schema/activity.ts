import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { teams } from './teams.ts';

/** Who did what, when: one row per write; later feeds notifications and the inbox. */
export const activityEntries = pgTable(
  'activity_entries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    /** The acting user, or null when an API key acted (then `actorKeyId` is set). */
    actorUserId: uuid(),
    actorKeyId: integer(),
    action: text().notNull(),
    subjectType: text().notNull(),
    subjectId: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_entries_team_idx').on(t.teamId, t.id),
    index('activity_entries_subject_idx').on(t.subjectType, t.subjectId),
  ],
);
