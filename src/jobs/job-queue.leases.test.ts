import { describe, expect, it } from 'vitest';
import { TestClock } from '../../test/helpers/context.ts';
import { openPostgres } from '../db/client.ts';
import type { JobContext } from './job-queue.ts';
import { claimDue, insertJob } from './jobs.repository.ts';
import { deferred, useJobsDatabase } from './test-jobs.ts';

const t = useJobsDatabase();

/** Resolves once `check` holds, checking every few milliseconds (for real timers only). */
async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('leases', () => {
  it('runs a job again once the lease of the process that claimed it expires', async () => {
    const clock = new TestClock();
    const dead = t.queue(clock);
    const alive = t.queue(clock);
    const claimed = deferred();
    const never = deferred();
    dead.define(
      'peaks',
      async () => {
        claimed.resolve();
        await never.promise;
      },
      { leaseMs: 60_000 },
    );
    const attempts: JobContext[] = [];
    alive.define(
      'peaks',
      async (_payload, context) => {
        attempts.push(context);
      },
      { leaseMs: 60_000 },
    );
    await alive.enqueue(t.db, 'peaks', { fileId: 'f1' });

    // The first process claims the job and then makes no progress, as if killed.
    const deadRun = dead.runDue();
    await claimed.promise;
    expect(await alive.runDue()).toBe(0);
    clock.advance(59_999);
    expect(await alive.runDue()).toBe(0);
    clock.advance(1);
    expect(await alive.runDue()).toBe(1);
    expect(attempts.map((context) => context.attempt)).toEqual([2]);
    expect(await t.rows()).toEqual([]);

    // If the first process comes back, its outcome no longer counts: it does not resurrect the job.
    never.reject(new Error('woke up late'));
    expect(await deadRun).toBe(1);
    expect(await t.rows()).toEqual([]);
  });

  it('fails a job whose last attempt died with its process', async () => {
    const clock = new TestClock();
    const dead = t.queue(clock);
    const alive = t.queue(clock);
    const claimed = deferred();
    const never = deferred();
    dead.define(
      'once',
      async () => {
        claimed.resolve();
        await never.promise;
      },
      { maxAttempts: 1, leaseMs: 1_000 },
    );
    let aliveRuns = 0;
    alive.define(
      'once',
      async () => {
        aliveRuns++;
      },
      { maxAttempts: 1, leaseMs: 1_000 },
    );
    await alive.enqueue(t.db, 'once', {});
    const deadRun = dead.runDue();
    await claimed.promise;

    clock.advance(1_000);
    expect(await alive.runDue()).toBe(0);
    expect(aliveRuns).toBe(0);
    expect(await t.rows()).toMatchObject([
      { status: 'failed', attempts: 2, lastError: 'attempt 1 did not finish before its lease expired' },
    ]);
    never.resolve();
    await deadRun;
    expect(await t.rows()).toMatchObject([{ status: 'failed' }]);
  });

  it('renews the lease while the handler runs', async () => {
    const clock = new TestClock();
    const owner = t.queue(clock);
    const other = t.queue(clock);
    const claimed = deferred();
    const gate = deferred();
    const handler = async () => {
      claimed.resolve();
      await gate.promise;
    };
    owner.define('long', handler, { leaseMs: 300 });
    other.define('long', handler, { leaseMs: 300 });
    await owner.enqueue(t.db, 'long', {});
    const run = owner.runDue();
    await claimed.promise;
    const [claim] = await t.rows();
    const firstLease = claim?.lockedUntil?.getTime() ?? 0;

    clock.advance(200);
    // The renewal runs on a real timer, every third of the lease.
    await until(async () => ((await t.rows())[0]?.lockedUntil?.getTime() ?? 0) > firstLease);
    clock.advance(200);
    expect(clock.now().getTime()).toBeGreaterThan(firstLease);
    expect(await other.runDue()).toBe(0);

    gate.resolve();
    expect(await run).toBe(1);
    expect(await t.rows()).toEqual([]);
  });
});

describe('claims', () => {
  it('takes the oldest due jobs first, queued ones and expired leases alike, up to the limit', async () => {
    const start = new TestClock().now().getTime();
    const at = (ms: number) => new Date(start + ms);
    const leaseMs = new Map([['peaks', 1_000]]);
    for (const [n, runAt] of [
      [1, -3_000],
      [2, -2_000],
      [3, -1_000],
      [4, 10_000],
    ] as const) {
      await insertJob(t.db, {
        type: 'peaks',
        payload: { n },
        runAt: at(runAt),
        dedupeKey: undefined,
        now: at(0),
      });
    }
    await insertJob(t.db, {
      type: 'other',
      payload: { n: 0 },
      runAt: at(-9_000),
      dedupeKey: undefined,
      now: at(0),
    });

    const first = await claimDue(t.db, { leaseMs, now: at(0), limit: 1 });
    expect(first.map((c) => c.payload)).toEqual([{ n: 1 }]);
    // Its lease has expired by 2 s later: it comes back first, then the oldest queued job.
    const next = await claimDue(t.db, { leaseMs, now: at(2_000), limit: 2 });
    const byN = (claims: typeof next) =>
      claims
        .map((c) => ({ ...(c.payload as { n: number }), attempts: c.attempts }))
        .sort((a, b) => a.n - b.n);
    expect(byN(next)).toEqual([
      { n: 1, attempts: 2 },
      { n: 2, attempts: 1 },
    ]);
    const rest = await claimDue(t.db, { leaseMs, now: at(2_000), limit: 5 });
    expect(rest.map((c) => c.payload)).toEqual([{ n: 3 }]);
  });
});

describe('start and stop', () => {
  it('start() polls for due jobs', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock, { pollIntervalMs: 10 });
    const ran = deferred<unknown>();
    queue.define('ping', async (payload) => ran.resolve(payload));
    queue.start();
    await queue.enqueue(t.db, 'ping', { hello: 'world' });
    expect(await ran.promise).toEqual({ hello: 'world' });
  });

  it('nudge() polls at once instead of at the next interval, and does nothing on a stopped queue', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock, { pollIntervalMs: 3_600_000 });
    const ran = deferred<unknown>();
    queue.define('ping', async (payload) => ran.resolve(payload));
    await queue.enqueue(t.db, 'ping', { n: 1 }, { runAt: new Date(clock.now().getTime() + 1_000) });

    // Stopped: the nudge is ignored and the due job stays queued.
    clock.advance(1_000);
    queue.nudge();
    for (let i = 0; i < 5; i++) await t.rows();
    expect(await t.rows()).toMatchObject([{ type: 'ping', status: 'queued' }]);

    // Started, the first poll runs it; the next one would come only an hour later without a nudge.
    queue.start();
    expect(await ran.promise).toEqual({ n: 1 });
    await until(async () => (await t.rows()).length === 0);
    const second = deferred<unknown>();
    queue.define('pong', async (payload) => second.resolve(payload));
    await queue.enqueue(t.db, 'pong', { n: 2 });
    queue.nudge();
    expect(await second.promise).toEqual({ n: 2 });
  });

  it('stop() waits for running jobs to finish', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock, { pollIntervalMs: 10, stopTimeoutMs: 60_000 });
    const started = deferred();
    const gate = deferred();
    let signal: AbortSignal | undefined;
    queue.define('upload-cleanup', async (_payload, context) => {
      signal = context.signal;
      started.resolve();
      await gate.promise;
    });
    await queue.enqueue(t.db, 'upload-cleanup', {});
    queue.start();
    await started.promise;

    let stopped = false;
    const stopping = queue.stop().then(() => {
      stopped = true;
    });
    // Several round trips to the database: the job still runs and stop() has not returned.
    for (let i = 0; i < 5; i++) await t.rows();
    expect(stopped).toBe(false);
    expect(await t.rows()).toMatchObject([{ status: 'running' }]);

    gate.resolve();
    await stopping;
    expect(signal?.aborted).toBe(false);
    expect(await t.rows()).toEqual([]);

    // Stopped: a due job stays queued until a queue runs it.
    await queue.enqueue(t.db, 'upload-cleanup', {});
    expect(await queue.runDue()).toBe(1);
  });

  it('stop() also ends a runDue() in progress after its current job', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock);
    const started = deferred();
    const gate = deferred();
    queue.define('batch', async () => {
      started.resolve();
      await gate.promise;
    });
    await queue.enqueue(t.db, 'batch', { n: 1 });
    await queue.enqueue(t.db, 'batch', { n: 2 });
    const run = queue.runDue();
    await started.promise;
    const stopping = queue.stop();
    gate.resolve();
    await stopping;
    expect(await run).toBe(1);
    expect(await t.rows()).toMatchObject([{ status: 'queued' }]);
  });

  it('stop() aborts jobs that outlast its bound and hands them back without using up an attempt', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock, { pollIntervalMs: 10, stopTimeoutMs: 20 });
    const started = deferred();
    queue.define('slow', async (_payload, { signal }) => {
      started.resolve();
      await new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    });
    await queue.enqueue(t.db, 'slow', {});
    queue.start();
    await started.promise;
    await queue.stop();

    const [row] = await t.rows();
    expect(row).toMatchObject({ status: 'queued', attempts: 0, lockToken: null, lockedUntil: null });
    expect(row?.runAt.getTime()).toBeLessThanOrEqual(clock.now().getTime());

    const next = t.queue(clock);
    let ran = 0;
    next.define('slow', async () => {
      ran++;
    });
    expect(await next.runDue()).toBe(1);
    expect(ran).toBe(1);
  });

  it('stop() hands back jobs whose handler ignores the abort signal', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock, { pollIntervalMs: 10, stopTimeoutMs: 20 });
    const started = deferred();
    queue.define('stubborn', async () => {
      started.resolve();
      await new Promise(() => {});
    });
    await queue.enqueue(t.db, 'stubborn', {});
    queue.start();
    await started.promise;
    await queue.stop();
    expect(await t.rows()).toMatchObject([{ status: 'queued', attempts: 0, lockToken: null }]);
  });
});

describe('several processes on one PostgreSQL database', () => {
  it.skipIf(!process.env.DATABASE_URL)('never run one job twice', async () => {
    const url = t.database.url;
    if (!url) throw new Error('a PostgreSQL test database has a URL');
    const second = openPostgres(url, 5);
    try {
      const clock = new TestClock();
      const count = 300;
      const runs = new Map<string, number>();
      const byQueue = [0, 0];
      const queues = [t.queue(clock, { concurrency: 4 }), t.queue(clock, { concurrency: 4 }, second.db)];
      queues.forEach((queue, index) => {
        queue.define<{ n: number }>('deliver', async (payload) => {
          runs.set(String(payload.n), (runs.get(String(payload.n)) ?? 0) + 1);
          byQueue[index] = (byQueue[index] ?? 0) + 1;
        });
      });
      for (let n = 0; n < count; n += 50) {
        await t.db.transaction(async (tx) => {
          for (let i = n; i < n + 50; i++) await queues[0]?.enqueue(tx, 'deliver', { n: i });
        });
      }

      // Two loops per process, all claiming from the same rows at once.
      const totals = await Promise.all([...queues, ...queues].map((queue) => queue.runDue()));
      expect(totals.reduce((sum, ran) => sum + ran, 0)).toBe(count);
      expect(runs.size).toBe(count);
      expect([...runs.values()].every((times) => times === 1)).toBe(true);
      expect((byQueue[0] ?? 0) + (byQueue[1] ?? 0)).toBe(count);
      expect(await t.rows()).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)('run each job once when both poll', async () => {
    const url = t.database.url;
    if (!url) throw new Error('a PostgreSQL test database has a URL');
    const second = openPostgres(url, 5);
    const clock = new TestClock();
    const queues = [
      t.queue(clock, { concurrency: 8, pollIntervalMs: 5 }),
      t.queue(clock, { concurrency: 8, pollIntervalMs: 5 }, second.db),
    ];
    try {
      const count = 200;
      const runs = new Map<number, number>();
      for (const queue of queues) {
        queue.define<{ n: number }>('deliver', async (payload) => {
          runs.set(payload.n, (runs.get(payload.n) ?? 0) + 1);
        });
        queue.start();
      }
      await t.db.transaction(async (tx) => {
        for (let n = 0; n < count; n++) await queues[0]?.enqueue(tx, 'deliver', { n });
      });
      await until(async () => (await t.rows()).length === 0);
      await Promise.all(queues.map((queue) => queue.stop()));
      expect(runs.size).toBe(count);
      expect([...runs.values()].every((times) => times === 1)).toBe(true);
    } finally {
      await Promise.all(queues.map((queue) => queue.stop()));
      await second.close();
    }
  });
});
