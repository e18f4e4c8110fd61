import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { sqlState } from '../shared/db-errors.ts';

export type Executor = Db | DbTransaction;
export type JobRow = typeof jobs.$inferSelect;

/** A job held by this process: every later write is conditioned on its lock token. */
export type Claim = Pick<JobRow, 'id' | 'type' | 'payload' | 'attempts' | 'dedupeKey' | 'lastError'> & {
  lockToken: string;
};

const UNIQUE_VIOLATION = '23505';
const queuedWithKey = sql`${jobs.status} = 'queued' and ${jobs.dedupeKey} is not null`;

/**
 * Inserts a queued job; with a dedupe key already queued for the type, does nothing. Every insert into `jobs`
 * announces the types it queued on the `jobs` channel at commit (migration 0044), waking every process's queue.
 */
export async function insertJob(
  executor: Executor,
  job: { type: string; payload: unknown; runAt: Date; dedupeKey: string | undefined; now: Date },
): Promise<void> {
  await executor
    .insert(jobs)
    .values({
      type: job.type,
      // Drizzle writes a null jsonb value as SQL NULL; JSON null keeps the column meaning "the payload".
      payload: job.payload == null ? sql`'null'::jsonb` : job.payload,
      dedupeKey: job.dedupeKey ?? null,
      runAt: job.runAt,
      createdAt: job.now,
      updatedAt: job.now,
    })
    .onConflictDoNothing({ target: [jobs.type, jobs.dedupeKey], where: queuedWithKey });
}

/**
 * Queues a job under `dedupeKey` to run at `runAt`, or moves the one already queued under it earlier to
 * `runAt`: one queued run per key, at the earliest time asked for.
 */
export async function queueEarliest(
  executor: Executor,
  job: { type: string; payload: unknown; dedupeKey: string; runAt: Date; now: Date },
): Promise<void> {
  await executor
    .insert(jobs)
    .values({
      type: job.type,
      payload: job.payload,
      dedupeKey: job.dedupeKey,
      runAt: job.runAt,
      createdAt: job.now,
      updatedAt: job.now,
    })
    .onConflictDoUpdate({
      target: [jobs.type, jobs.dedupeKey],
      targetWhere: queuedWithKey,
      set: { runAt: sql`least(${jobs.runAt}, excluded.run_at)` },
    });
}

/** When the next queued job of one of `types` is due, if any is queued. */
export async function nextRunAt(db: Db, types: readonly string[]): Promise<Date | undefined> {
  if (types.length === 0) return undefined;
  const [row] = await db
    .select({ runAt: jobs.runAt })
    .from(jobs)
    .where(and(eq(jobs.status, 'queued'), inArray(jobs.type, [...types])))
    .orderBy(jobs.runAt)
    .limit(1);
  return row?.runAt;
}

/**
 * Queues the next occurrence of a recurring job unless one is queued or running. Run in the
 * transaction that finishes the previous occurrence, so other processes never see neither.
 */
export async function scheduleOccurrence(
  executor: Executor,
  job: { type: string; dedupeKey: string; runAt: Date; now: Date },
): Promise<void> {
  await executor.execute(sql`
    insert into ${jobs} (type, payload, dedupe_key, run_at, created_at, updated_at)
    select ${job.type}, 'null'::jsonb, ${job.dedupeKey}, ${job.runAt.toISOString()}::timestamptz,
           ${job.now.toISOString()}::timestamptz, ${job.now.toISOString()}::timestamptz
    where not exists (
      select 1 from ${jobs}
      where type = ${job.type} and dedupe_key = ${job.dedupeKey} and status in ('queued', 'running'))
    on conflict (type, dedupe_key) where ${queuedWithKey} do nothing`);
}

/**
 * Claims up to `limit` due jobs of the given types: queued ones whose time has come and running
 * ones whose lease expired (their process died). Rows another process is claiming are skipped.
 */
export async function claimDue(
  db: Db,
  options: { leaseMs: ReadonlyMap<string, number>; now: Date; limit: number },
): Promise<Claim[]> {
  const types = [...options.leaseMs.keys()];
  if (types.length === 0 || options.limit <= 0) return [];
  const now = options.now;
  // Two index-ordered picks (queued by run_at, expired leases by locked_until), each stopping after `limit`
  // rows: one scan over both with OR would read and sort the whole backlog on every claim.
  const due = (status: 'queued' | 'running') =>
    db
      .select({ id: jobs.id, runAt: jobs.runAt })
      .from(jobs)
      .where(
        and(
          eq(jobs.status, status),
          status === 'queued' ? lte(jobs.runAt, now) : lte(jobs.lockedUntil, now),
          inArray(jobs.type, types),
        ),
      )
      .orderBy(status === 'queued' ? jobs.runAt : jobs.lockedUntil)
      .limit(options.limit)
      .for('update', { skipLocked: true });
  const queued = db.$with('queued').as(due('queued'));
  const expired = db.$with('expired').as(due('running'));
  const picked = sql`(select id from (select id, run_at from ${queued} union all select id, run_at from ${expired}) due
    order by run_at limit ${options.limit})`;
  const leases = JSON.stringify(Object.fromEntries(options.leaseMs));
  const rows = await db
    .with(queued, expired)
    .update(jobs)
    .set({
      status: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockToken: sql`gen_random_uuid()`,
      lockedUntil: sql`${now.toISOString()}::timestamptz
        + (${leases}::jsonb ->> ${jobs.type})::bigint * interval '1 millisecond'`,
      updatedAt: now,
    })
    .where(sql`${jobs.id} in ${picked}`)
    .returning({
      id: jobs.id,
      type: jobs.type,
      payload: jobs.payload,
      attempts: jobs.attempts,
      dedupeKey: jobs.dedupeKey,
      lastError: jobs.lastError,
      lockToken: jobs.lockToken,
    });
  return rows.map((row) => ({ ...row, lockToken: row.lockToken as string }));
}

const held = (claim: Claim) => and(eq(jobs.id, claim.id), eq(jobs.lockToken, claim.lockToken));

/** Extends the lease; false when the claim was lost (lease expired and another process took it). */
export async function renewLease(db: Db, claim: Claim, lockedUntil: Date): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil })
    .where(and(held(claim), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Removes a job that succeeded. */
export async function deleteJob(executor: Executor, claim: Claim): Promise<void> {
  await executor.delete(jobs).where(held(claim));
}

/** Keeps a job that gave up, with its last error, for inspection. */
export async function markFailed(executor: Executor, claim: Claim, error: string, now: Date): Promise<void> {
  await executor
    .update(jobs)
    .set({ status: 'failed', lastError: error, lockToken: null, lockedUntil: null, updatedAt: now })
    .where(held(claim));
}

/**
 * Queues a held job again at `runAt` (a retry, or a release on shutdown with `refundAttempt`).
 * When a newer job with the same dedupe key is already queued, that one covers the work and this
 * one is dropped.
 */
export async function requeue(
  db: Db,
  claim: Claim,
  change: { runAt: Date; now: Date; lastError?: string; refundAttempt?: boolean },
): Promise<void> {
  try {
    await db
      .update(jobs)
      .set({
        status: 'queued',
        runAt: change.runAt,
        lockToken: null,
        lockedUntil: null,
        updatedAt: change.now,
        ...(change.lastError === undefined ? {} : { lastError: change.lastError }),
        ...(change.refundAttempt ? { attempts: sql`greatest(${jobs.attempts} - 1, 0)` } : {}),
      })
      .where(held(claim));
  } catch (error) {
    if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
    await deleteJob(db, claim);
  }
}
