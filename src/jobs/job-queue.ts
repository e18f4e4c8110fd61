import type { Database, Db, DbTransaction, Unlisten } from '../db/client.ts';
import type { Clock } from '../shared/clock.ts';
import { backoffDelay } from './backoff.ts';
import {
  type Claim,
  claimDue,
  deleteJob,
  type Executor,
  insertJob,
  markFailed,
  nextRunAt,
  renewLease,
  requeue,
  scheduleOccurrence,
} from './jobs.repository.ts';

/** How soon a poll that found a job already due looks again. */
const DUE_RECHECK_MS = 1_000;

export type { DbTransaction };

export type JobContext = { jobId: string; attempt: number; signal: AbortSignal };
export type JobHandler<P> = (payload: P, context: JobContext) => Promise<void>;
export type JobOptions = {
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts?: number;
  /** Back-off base: the retry after attempt n waits between half and all of `backoffMs * 2^(n-1)`. */
  backoffMs?: number;
  /** How long a claim holds without renewal; a running handler renews it every third of it. */
  leaseMs?: number;
  /** The pool of slots the job runs in: the default one, or one named in the queue's `pools`. */
  pool?: string;
};

type LogFn = (object: object, message?: string) => void;
/** The part of a pino logger the queue uses. */
export type JobLogger = { info: LogFn; warn: LogFn; error: LogFn };

export type JobQueueOptions = {
  /**
   * How often the queue looks for due jobs besides being woken: the fallback for a notice lost with its
   * connection (a queued job's own time is waited for exactly).
   */
  pollIntervalMs?: number;
  /** The database's NOTIFY listener: a job inserted by any process wakes this queue at its commit. */
  listen?: Database['listen'];
  /** Jobs of the default pool this process runs at once while started. */
  concurrency?: number;
  /**
   * Further pools and the jobs each runs at once, besides the default pool: work of one kind (audio) then
   * never waits for, nor holds up, the slots of the others (deliveries, reminders).
   */
  pools?: Record<string, number>;
  logger?: JobLogger;
  /** How long `stop()` waits for running jobs before aborting them. */
  stopTimeoutMs?: number;
  /** Source of jitter, in [0, 1). */
  random?: () => number;
};

/** The channel on which every insert into `jobs` names the types it queued (migration 0044). */
export const JOBS_CHANNEL = 'jobs';
export const JOB_DEFAULTS = { maxAttempts: 5, backoffMs: 10_000, leaseMs: 5 * 60_000 } as const;
export const DEFAULT_POOL = 'default';
/** The pool of audio work (decoding, analysis, waveforms), named where the queue is made. */
export const MEDIA_POOL = 'media';
/** Dedupe key of the single queued-or-running occurrence of a recurring job. */
const RECURRING_KEY = 'recurring';
/** After aborting on stop, how long handlers get to notice before their jobs are handed back. */
const ABORT_GRACE_MS = 1_000;
const MAX_ERROR_LENGTH = 2_000;
/** Longer delays make Node fire a timer at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const STOPPING = new Error('The job queue is stopping');
const LEASE_LOST = new Error('The job lease expired and another process claimed the job');

const silent: JobLogger = { info: () => {}, warn: () => {}, error: () => {} };

type Definition = Required<JobOptions> & { handler: JobHandler<unknown> };
type Running = { claim: Claim; pool: string; controller: AbortController; done: Promise<boolean> };
/** A pool's slots and the lease of each job type it runs. */
type Pool = { concurrency: number; leases: Map<string, number> };

/**
 * Durable background jobs in the `jobs` table. A job is claimed under a lease (`FOR UPDATE SKIP
 * LOCKED`, so processes sharing a database never claim the same one), retried with back-off on
 * failure, and claimed again by anyone once the lease of a process that died expires: delivery is
 * at least once, so handlers must be idempotent. A process only claims types it defined.
 */
export class JobQueue {
  /** Replaceable once the process logger exists. */
  logger: JobLogger;
  private readonly pollIntervalMs: number;
  private readonly listen: Database['listen'] | undefined;
  private listening: Promise<Unlisten | undefined> | undefined;
  private readonly pools = new Map<string, Pool>();
  private readonly stopTimeoutMs: number;
  private readonly random: () => number;
  private readonly definitions = new Map<string, Definition>();
  private readonly leases = new Map<string, number>();
  private readonly recurring = new Map<string, number>();
  private readonly running = new Set<Running>();
  private started = false;
  /** How many times stop() was called. */
  private stops = 0;
  private recurringScheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  /** A nudge arrived since the current poll began: the next poll follows at once. */
  private nudged = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    options: JobQueueOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.listen = options.listen;
    for (const [name, concurrency] of [
      [DEFAULT_POOL, options.concurrency ?? 4] as const,
      ...Object.entries(options.pools ?? {}),
    ]) {
      if (!Number.isInteger(concurrency) || concurrency < 1)
        throw new Error(`Job pool "${name}": concurrency must be a positive integer`);
      this.pools.set(name, { concurrency, leases: new Map() });
    }
    this.stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? silent;
  }

  define<P>(type: string, handler: JobHandler<P>, options: JobOptions = {}): void {
    if (this.definitions.has(type)) throw new Error(`Job type "${type}" is already defined`);
    const definition: Definition = {
      maxAttempts: options.maxAttempts ?? JOB_DEFAULTS.maxAttempts,
      backoffMs: options.backoffMs ?? JOB_DEFAULTS.backoffMs,
      leaseMs: options.leaseMs ?? JOB_DEFAULTS.leaseMs,
      pool: options.pool ?? DEFAULT_POOL,
      handler: handler as JobHandler<unknown>,
    };
    const pool = this.pools.get(definition.pool);
    if (!pool) throw new Error(`Job type "${type}": the queue has no pool "${definition.pool}"`);
    if (!Number.isInteger(definition.maxAttempts) || definition.maxAttempts < 1) {
      throw new Error(`Job type "${type}": maxAttempts must be a positive integer`);
    }
    if (!(definition.leaseMs > 0) || !(definition.backoffMs >= 0)) {
      throw new Error(`Job type "${type}": leaseMs must be positive and backoffMs not negative`);
    }
    this.definitions.set(type, definition);
    this.leases.set(type, Math.ceil(definition.leaseMs));
    pool.leases.set(type, Math.ceil(definition.leaseMs));
  }

  /** Inserts a job using `executor` (the Db or a transaction), so it commits with the caller's write. */
  async enqueue<P>(
    executor: Db | DbTransaction,
    type: string,
    payload: P,
    options: { runAt?: Date; dedupeKey?: string } = {},
  ): Promise<void> {
    const now = this.clock.now();
    await insertJob(executor, {
      type,
      payload,
      runAt: options.runAt ?? now,
      dedupeKey: options.dedupeKey,
      now,
    });
  }

  /** A recurring job: runs every `everyMs` (one instance at a time across processes). */
  every(type: string, everyMs: number): void {
    if (!(everyMs > 0)) throw new Error(`Job type "${type}": everyMs must be positive`);
    this.recurring.set(type, everyMs);
    this.recurringScheduled = false;
  }

  /** Begins polling, and listening for the notices of new jobs. */
  start(): void {
    if (this.started) return;
    const orphan = [...this.recurring.keys()].find((type) => !this.definitions.has(type));
    if (orphan !== undefined) throw new Error(`Recurring job type "${orphan}" has no handler`);
    this.started = true;
    this.listening = this.listenForJobs();
    this.wake(0);
  }

  /** Wakes on a notice naming a type this queue runs, and after each (re)connection of the listener. */
  private async listenForJobs(): Promise<Unlisten | undefined> {
    if (!this.listen) return undefined;
    try {
      return await this.listen(
        JOBS_CHANNEL,
        (type) => {
          if (this.definitions.has(type)) this.nudge();
        },
        () => this.nudge(),
      );
    } catch (error) {
      this.logger.warn({ err: error }, 'could not listen for new jobs; polling only');
      return undefined;
    }
  }

  /** Stops claiming, waits for running jobs (bounded), aborts the rest via signal and hands them back. */
  async stop(): Promise<void> {
    this.started = false;
    this.stops++;
    clearTimeout(this.timer);
    this.timer = undefined;
    const listening = this.listening;
    this.listening = undefined;
    await (await listening)?.().catch(() => {});
    await this.polling;
    if (await this.allSettleWithin(this.stopTimeoutMs)) return;
    for (const entry of this.running) entry.controller.abort(STOPPING);
    if (await this.allSettleWithin(ABORT_GRACE_MS)) return;
    // Handlers that ignore their signal: another process may run their jobs right away. Whatever
    // they do later no longer counts, since their claim is gone.
    const stuck = [...this.running];
    this.running.clear();
    await Promise.all(
      stuck.map(({ claim }) =>
        this.release(claim).catch((error: unknown) =>
          this.logger.error({ err: error, jobId: claim.id }, 'could not hand back a job on stop'),
        ),
      ),
    );
  }

  /** Polls at once instead of at the next interval (work was just committed); nothing when stopped. */
  nudge(): void {
    if (!this.started) return;
    this.nudged = true;
    if (!this.polling) this.wake(0);
  }

  /** Runs every due job now and resolves when none is due (for tests and for the CLI). */
  async runDue(): Promise<number> {
    const stops = this.stops;
    await this.scheduleRecurring();
    let ran = 0;
    // A stop() meanwhile ends the run too.
    while (stops === this.stops) {
      const [claim] = await this.claim(1);
      if (!claim) return ran;
      if (await this.launch(claim)) ran++;
    }
    return ran;
  }

  private claim(limit: number, leases: ReadonlyMap<string, number> = this.leases): Promise<Claim[]> {
    return claimDue(this.db, { leaseMs: leases, now: this.clock.now(), limit });
  }

  private wake(delayMs: number): void {
    if (!this.started) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, delayMs);
  }

  private async poll(): Promise<void> {
    if (!this.started || this.polling) return;
    let delay = this.pollIntervalMs;
    this.nudged = false;
    this.polling = (async () => {
      try {
        if (!this.recurringScheduled) await this.scheduleRecurring();
        // Each pool claims only its own types, into its own free slots.
        for (const [name, pool] of this.pools) {
          const free = pool.concurrency - this.runningIn(name);
          if (free <= 0 || pool.leases.size === 0) continue;
          const claims = await this.claim(free, pool.leases);
          for (const claim of claims) void this.launch(claim);
          if (claims.length === free) delay = 0;
        }
        if (delay > 0) delay = await this.untilNextDue(delay);
      } catch (error) {
        this.logger.error({ err: error }, 'polling for jobs failed');
      }
    })();
    await this.polling;
    this.polling = undefined;
    this.wake(this.nudged ? 0 : delay);
  }

  /**
   * The wait until the next queued job is due, when that comes before `delay` (notices tell of new jobs, not of
   * the time a job waits for). One already due either fell due after this poll's claim, or was left for want of
   * a slot (a finishing job wakes the queue): either way the queue looks again shortly, never a whole interval
   * later.
   */
  private async untilNextDue(delay: number): Promise<number> {
    const next = await nextRunAt(this.db, [...this.leases.keys()]);
    const wait = next ? next.getTime() - this.clock.now().getTime() : delay;
    return Math.min(delay, wait > 0 ? wait : DUE_RECHECK_MS);
  }

  private async scheduleRecurring(): Promise<void> {
    const now = this.clock.now();
    for (const type of this.recurring.keys()) {
      if (!this.definitions.has(type)) throw new Error(`Recurring job type "${type}" has no handler`);
      // The first occurrence runs right away; later ones `everyMs` after the previous one finished.
      await scheduleOccurrence(this.db, { type, dedupeKey: RECURRING_KEY, runAt: now, now });
    }
    this.recurringScheduled = true;
  }

  private runningIn(pool: string): number {
    let count = 0;
    for (const entry of this.running) if (entry.pool === pool) count++;
    return count;
  }

  /** Runs a claimed job; the promise never rejects and tells whether the handler ran. */
  private launch(claim: Claim): Promise<boolean> {
    const pool = (this.definitions.get(claim.type) as Definition).pool;
    const entry: Running = { claim, pool, controller: new AbortController(), done: Promise.resolve(false) };
    entry.done = this.execute(entry).finally(() => {
      this.running.delete(entry);
      this.wake(0);
    });
    this.running.add(entry);
    return entry.done;
  }

  private async execute({ claim, controller }: Running): Promise<boolean> {
    const definition = this.definitions.get(claim.type) as Definition;
    const log = { jobId: claim.id, type: claim.type, attempt: claim.attempts };
    try {
      if (claim.attempts > definition.maxAttempts) {
        // Its last attempt never reported back: the process running it died.
        const error = `attempt ${claim.attempts - 1} did not finish before its lease expired`;
        await this.finish(claim, (executor) => markFailed(executor, claim, error, this.clock.now()));
        this.logger.error(log, 'job failed: its process stopped during the last attempt');
        return false;
      }
      const heartbeat = setInterval(
        () => void this.renew(claim, definition.leaseMs, controller),
        Math.min(definition.leaseMs / 3, MAX_TIMER_MS),
      );
      heartbeat.unref();
      let failure: { error: unknown } | undefined;
      try {
        await definition.handler(claim.payload, {
          jobId: claim.id,
          attempt: claim.attempts,
          signal: controller.signal,
        });
      } catch (error) {
        failure = { error };
      } finally {
        clearInterval(heartbeat);
      }
      await this.record(claim, definition, failure, controller.signal);
      return true;
    } catch (error) {
      // The outcome could not be written (database unavailable): the lease runs out and the job runs again.
      this.logger.error({ ...log, err: error }, 'could not record the outcome of a job');
      return true;
    }
  }

  private async record(
    claim: Claim,
    definition: Definition,
    failure: { error: unknown } | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const log = { jobId: claim.id, type: claim.type, attempt: claim.attempts };
    if (signal.reason === LEASE_LOST) {
      this.logger.warn(log, 'job lease lost while running; its new owner records the outcome');
      return;
    }
    if (!failure) {
      await this.finish(claim, (executor) => deleteJob(executor, claim));
      return;
    }
    if (signal.reason === STOPPING) {
      await this.release(claim);
      return;
    }
    const message = errorMessage(failure.error);
    const now = this.clock.now();
    if (claim.attempts >= definition.maxAttempts) {
      await this.finish(claim, (executor) => markFailed(executor, claim, message, now));
      this.logger.error({ ...log, err: failure.error }, 'job failed after its last attempt');
      return;
    }
    const delay = backoffDelay(claim.attempts, definition.backoffMs, this.random);
    await requeue(this.db, claim, { runAt: new Date(now.getTime() + delay), now, lastError: message });
    this.logger.warn({ ...log, err: failure.error, retryInMs: delay }, 'job attempt failed; will retry');
  }

  /** Writes a job's final outcome; a recurring job's next occurrence is queued in the same transaction. */
  private async finish(claim: Claim, write: (executor: Executor) => Promise<void>): Promise<void> {
    const everyMs = this.recurring.get(claim.type);
    if (everyMs === undefined || claim.dedupeKey !== RECURRING_KEY) {
      await write(this.db);
      return;
    }
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await write(tx);
      await scheduleOccurrence(tx, {
        type: claim.type,
        dedupeKey: RECURRING_KEY,
        runAt: new Date(now.getTime() + everyMs),
        now,
      });
    });
  }

  /** Hands a job back unfinished, without counting the attempt. */
  private release(claim: Claim): Promise<void> {
    const now = this.clock.now();
    return requeue(this.db, claim, { runAt: now, now, refundAttempt: true });
  }

  private async renew(claim: Claim, leaseMs: number, controller: AbortController): Promise<void> {
    try {
      const lockedUntil = new Date(this.clock.now().getTime() + leaseMs);
      if (!(await renewLease(this.db, claim, lockedUntil))) controller.abort(LEASE_LOST);
    } catch (error) {
      this.logger.warn({ err: error, jobId: claim.id }, 'could not renew a job lease');
    }
  }

  private async allSettleWithin(ms: number): Promise<boolean> {
    if (this.running.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      const all = Promise.all([...this.running].map((entry) => entry.done)).then(() => true);
      return await Promise.race([all, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message || error.name : String(error);
  return message.slice(0, MAX_ERROR_LENGTH);
}
