import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * `queued`: waits for `run_at`. `running`: claimed until `locked_until`; past it, any process may
 * claim it again. `failed`: gave up after its last attempt, kept for inspection.
 * Succeeded jobs are deleted.
 */
export const JOB_STATUSES = ['queued', 'running', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Durable background jobs, claimed with `FOR UPDATE SKIP LOCKED` under a lease. */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid().primaryKey().defaultRandom(),
    type: text().notNull(),
    payload: jsonb().$type<unknown>().notNull(),
    status: text().$type<JobStatus>().notNull().default('queued'),
    dedupeKey: text(),
    runAt: timestamp({ withTimezone: true }).notNull(),
    /** Attempts started so far, counted when claimed so a job that crashes its process runs out. */
    attempts: integer().notNull().default(0),
    /** Token of the current claim; a process that lost its lease cannot finish the job. */
    lockToken: uuid(),
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Dedupe only among jobs that have not started: a change arriving while a job runs needs a new run.
    uniqueIndex('jobs_type_dedupe_key_queued_unique')
      .on(t.type, t.dedupeKey)
      .where(sql`${t.status} = 'queued' and ${t.dedupeKey} is not null`),
    index('jobs_queued_run_at_idx').on(t.runAt).where(sql`${t.status} = 'queued'`),
    index('jobs_running_locked_until_idx').on(t.lockedUntil).where(sql`${t.status} = 'running'`),
    index('jobs_failed_type_idx').on(t.type, t.updatedAt).where(sql`${t.status} = 'failed'`),
  ],
);
