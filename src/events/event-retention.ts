import { and, asc, inArray, isNotNull, lt, lte, not, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { domainEvents, eventConsumers } from '../db/schema/index.ts';
import { deleteInBatches } from '../jobs/batched-deletes.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { Clock } from '../shared/clock.ts';

export const EVENT_RETENTION_JOB = 'events.deleteExpired';
const DAY = 24 * 3_600_000;
const RUN_EVERY_MS = 15 * 60_000;
const MAX_BIGINT = '9223372036854775807';

/**
 * What keeps an event past its days besides the readers that keep a position: a condition on the event's id
 * (an area whose rows of the event must go first, such as webhook delivery logs), registered where the app is
 * composed.
 */
export type EventHold = (eventId: AnyPgColumn) => SQL;

export type RetentionOptions = {
  before: Date;
  limit: number;
  holds: readonly EventHold[];
  /**
   * The position consumers the app runs. Only they hold events back: the row of a consumer the app no longer
   * runs (renamed or retired) would otherwise keep the whole log forever.
   */
  readers: readonly string[];
};

/**
 * Deletes up to `limit` events created before `before`, oldest first: only those every running position
 * consumer has read past, and none a hold keeps. Answers how many went.
 */
export async function deleteEventsBefore(db: Db, options: RetentionOptions): Promise<number> {
  // A consumer that has not started yet holds nothing back: it starts at the end of the log.
  const passed = db
    .select({ position: sql`coalesce(min(${eventConsumers.position}), ${sql.raw(MAX_BIGINT)})` })
    .from(eventConsumers)
    .where(inArray(eventConsumers.name, options.readers.length > 0 ? [...options.readers] : ['']));
  const expired = db
    .select({ id: domainEvents.id })
    .from(domainEvents)
    .where(
      and(
        lt(domainEvents.createdAt, options.before),
        isNotNull(domainEvents.position),
        lte(domainEvents.position, sql`(${passed})`),
        ...options.holds.map((hold) => not(hold(domainEvents.id))),
      ),
    )
    .orderBy(asc(domainEvents.createdAt))
    .limit(options.limit);
  const rows = await db
    .delete(domainEvents)
    .where(inArray(domainEvents.id, expired))
    .returning({ id: domainEvents.id });
  return rows.length;
}

/** Removes the events older than `days`, in batches, every quarter of an hour. */
export function defineEventRetention(
  jobs: JobQueue,
  deps: { db: Db; clock: Clock; days: number } & Pick<RetentionOptions, 'holds' | 'readers'>,
): void {
  jobs.define(EVENT_RETENTION_JOB, async () => {
    const before = new Date(deps.clock.now().getTime() - deps.days * DAY);
    const { holds, readers } = deps;
    await deleteInBatches((limit) => deleteEventsBefore(deps.db, { before, limit, holds, readers }));
  });
  jobs.every(EVENT_RETENTION_JOB, RUN_EVERY_MS);
}
