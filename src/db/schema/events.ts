import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.ts';
import { organisations } from './organisations.ts';
import { teams } from './teams.ts';

/**
 * The one log of what changed: one row per domain event, written in the transaction of the change. `position`
 * is given at commit, under a lock held until the commit is visible (migration 0043), so positions are in
 * commit order: a reader that has seen position N+1 can never later find an N. Until then it is null, and the
 * row is visible to its own transaction only.
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    /** The event's identity everywhere it goes (the webhook-id of its deliveries). */
    id: uuid().primaryKey(),
    position: bigint({ mode: 'number' }),
    type: text().notNull(),
    schemaVersion: smallint().notNull().default(1),
    teamId: integer().references(() => teams.id, { onDelete: 'cascade' }),
    organisationId: integer().references(() => organisations.id, { onDelete: 'cascade' }),
    subjectType: text().notNull(),
    subjectId: text().notNull(),
    /** The acting user, or the key (when a key acted); neither for the service itself or an operator. */
    actorUserId: uuid(),
    actorKeyId: integer(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    /**
     * Who may see it on the live streams: those who see `threadId`, those who may read `sessionId`, and
     * `recipients` by name; none of the three keeps it off the streams. `streamType` is its name there.
     */
    streamType: text(),
    threadId: uuid(),
    sessionId: integer(),
    recipients: uuid().array(),
    createdAt: stamp().notNull(),
  },
  (t) => [
    uniqueIndex('domain_events_position_idx').on(t.position),
    index('domain_events_team_idx').on(t.teamId, t.position).where(sql`${t.teamId} is not null`),
    index('domain_events_organisation_idx')
      .on(t.organisationId, t.position)
      .where(sql`${t.organisationId} is not null`),
    index('domain_events_subject_idx').on(t.subjectType, t.subjectId),
    // The live streams read only the events they carry, from their oldest on (resumes, gap checks).
    index('domain_events_stream_idx').on(t.position).where(sql`${t.streamType} is not null`),
    index('domain_events_thread_idx').on(t.threadId, t.position).where(sql`${t.threadId} is not null`),
    index('domain_events_session_idx').on(t.sessionId, t.position).where(sql`${t.sessionId} is not null`),
    index('domain_events_recipients_idx').using('gin', t.recipients),
    index('domain_events_created_idx').on(t.createdAt),
  ],
);

/** How far each reader of the log that keeps its own place (webhook fan-out, ...) has read. */
export const eventConsumers = pgTable('event_consumers', {
  name: text().primaryKey(),
  position: bigint({ mode: 'number' }).notNull().default(0),
  updatedAt: stamp().notNull().defaultNow(),
});
