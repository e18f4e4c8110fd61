import { describe, expect, it } from 'vitest';
import { TestClock } from '../../test/helpers/context.ts';
import { backoffDelay, MAX_BACKOFF_MS } from './backoff.ts';
import type { JobContext } from './job-queue.ts';
import { deferred, useJobsDatabase } from './test-jobs.ts';

const t = useJobsDatabase();

describe('enqueue', () => {
  it('commits with the caller transaction and leaves nothing when it rolls back', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock);
    const seen: unknown[] = [];
    queue.define<{ fileId: string; sizes: number[] }>('files.peaks', async (payload) => {
      seen.push(payload);
    });

    await expect(
      t.db.transaction(async (tx) => {
        await queue.enqueue(tx, 'files.peaks', { fileId: 'rolled-back', sizes: [] });
        throw new Error('write refused');
      }),
    ).rejects.toThrow('write refused');
    expect(await t.rows()).toEqual([]);

    await t.db.transaction((tx) => queue.enqueue(tx, 'files.peaks', { fileId: 'f1', sizes: [1, 2] }));
    expect(await t.rows()).toMatchObject([{ type: 'files.peaks', status: 'queued', attempts: 0 }]);

    expect(await queue.runDue()).toBe(1);
    expect(seen).toEqual([{ fileId: 'f1', sizes: [1, 2] }]);
    // Succeeded jobs are removed.
    expect(await t.rows()).toEqual([]);
  });

  it('waits for runAt on the injected clock', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock);
    let runs = 0;
    queue.define('later', async () => {
      runs++;
    });
    await queue.enqueue(t.db, 'later', null, { runAt: new Date(clock.now().getTime() + 60_000) });

    expect(await queue.runDue()).toBe(0);
    clock.advance(59_999);
    expect(await queue.runDue()).toBe(0);
    clock.advance(1);
    expect(await queue.runDue()).toBe(1);
    expect(runs).toBe(1);
  });

  it('leaves job types it does not handle to the processes that do', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock);
    queue.define('mine', async () => {});
    await queue.enqueue(t.db, 'someone-elses', { x: 1 });
    expect(await queue.runDue()).toBe(0);
    expect(await t.rows()).toMatchObject([{ type: 'someone-elses', status: 'queued' }]);
  });
});

describe('retries', () => {
  it('retries a failed attempt with exponential back-off and passes the attempt number', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock, { random: () => 0.5 });
    const attempts: JobContext[] = [];
    queue.define(
      'flaky',
      async (_payload, context) => {
        attempts.push(context);
        if (context.attempt < 3) throw new Error(`boom ${context.attempt}`);
      },
      { maxAttempts: 3, backoffMs: 1_000 },
    );
    await queue.enqueue(t.db, 'flaky', {});

    expect(await queue.runDue()).toBe(1);
    const [afterFirst] = await t.rows();
    expect(afterFirst).toMatchObject({ status: 'queued', attempts: 1, lastError: 'boom 1', lockToken: null });
    // Equal jitter: half of 1000 ms plus half of it times 0.5.
    expect(afterFirst?.runAt.getTime()).toBe(clock.now().getTime() + 750);

    clock.advance(749);
    expect(await queue.runDue()).toBe(0);
    clock.advance(1);
    expect(await queue.runDue()).toBe(1);
    const [afterSecond] = await t.rows();
    expect(afterSecond).toMatchObject({ status: 'queued', attempts: 2, lastError: 'boom 2' });
    expect(afterSecond?.runAt.getTime()).toBe(clock.now().getTime() + 1_500);

    clock.advance(1_500);
    expect(await queue.runDue()).toBe(1);
    expect(attempts.map((context) => context.attempt)).toEqual([1, 2, 3]);
    expect(new Set(attempts.map((context) => context.jobId)).size).toBe(1);
    expect(await t.rows()).toEqual([]);
  });

  it('marks the job failed with the last error after maxAttempts and keeps it', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock);
    let runs = 0;
    queue.define(
      'doomed',
      async (_payload, { attempt }) => {
        runs++;
        throw new Error(`endpoint answered 500 on attempt ${attempt}`);
      },
      { maxAttempts: 2, backoffMs: 10 },
    );
    await queue.enqueue(t.db, 'doomed', { url: 'https://example.test/hook' });

    expect(await queue.runDue()).toBe(1);
    clock.advance(10);
    expect(await queue.runDue()).toBe(1);
    clock.advance(24 * 60 * 60 * 1000);
    expect(await queue.runDue()).toBe(0);
    expect(runs).toBe(2);
    expect(await t.rows()).toMatchObject([
      {
        type: 'doomed',
        status: 'failed',
        attempts: 2,
        lastError: 'endpoint answered 500 on attempt 2',
        payload: { url: 'https://example.test/hook' },
        lockToken: null,
        lockedUntil: null,
      },
    ]);
  });

  it('spreads back-off between half and all of the exponential delay, capped at a day', () => {
    expect(backoffDelay(1, 1_000, () => 0)).toBe(500);
    expect(backoffDelay(1, 1_000, () => 0.999_999)).toBe(1_000);
    expect(backoffDelay(4, 1_000, () => 0)).toBe(4_000);
    expect(backoffDelay(4, 1_000, () => 0.999_999)).toBe(8_000);
    expect(backoffDelay(200, 60_000, () => 0)).toBe(MAX_BACKOFF_MS / 2);
    expect(backoffDelay(200, 60_000, () => 0.999_999)).toBeLessThanOrEqual(MAX_BACKOFF_MS);
    expect(backoffDelay(3, 0, () => 0.7)).toBe(0);
  });
});

describe('dedupe', () => {
  it('ignores an enqueue while a job with the same type and key is queued', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock);
    const seen: unknown[] = [];
    queue.define('peaks', async (payload) => {
      seen.push(payload);
    });
    queue.define('cleanup', async () => {});

    await queue.enqueue(t.db, 'peaks', { n: 1 }, { dedupeKey: 'file-1' });
    await queue.enqueue(t.db, 'peaks', { n: 2 }, { dedupeKey: 'file-1' });
    await queue.enqueue(t.db, 'peaks', { n: 3 }, { dedupeKey: 'file-2' });
    await queue.enqueue(t.db, 'cleanup', { n: 4 }, { dedupeKey: 'file-1' });
    await queue.enqueue(t.db, 'peaks', { n: 5 });
    await queue.enqueue(t.db, 'peaks', { n: 5 });
    expect(await t.rows()).toHaveLength(5);

    expect(await queue.runDue()).toBe(5);
    expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 3 }, { n: 5 }, { n: 5 }]));
    expect(seen).toHaveLength(4);

    // Once it ran, the key is free again.
    await queue.enqueue(t.db, 'peaks', { n: 6 }, { dedupeKey: 'file-1' });
    expect(await t.rows()).toMatchObject([{ payload: { n: 6 }, status: 'queued' }]);
  });

  it('queues a new job for a key whose job is already running, and drops the older one instead of retrying it', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock);
    const gate = deferred();
    const started = deferred();
    const seen: unknown[] = [];
    queue.define('peaks', async (payload) => {
      seen.push(payload);
      if (seen.length === 1) {
        started.resolve();
        await gate.promise;
        throw new Error('source changed while reading');
      }
    });
    await queue.enqueue(t.db, 'peaks', { v: 1 }, { dedupeKey: 'file-1' });
    const first = queue.runDue();
    await started.promise;

    clock.advance(1);
    await queue.enqueue(t.db, 'peaks', { v: 2 }, { dedupeKey: 'file-1' });
    await queue.enqueue(t.db, 'peaks', { v: 3 }, { dedupeKey: 'file-1' });
    expect((await t.rows()).map((row) => [row.status, row.payload])).toEqual([
      ['running', { v: 1 }],
      ['queued', { v: 2 }],
    ]);

    gate.resolve();
    // The retry of v1 is dropped: the queued v2 covers the same work; v2 then runs in the same pass.
    expect(await first).toBe(2);
    expect(seen).toEqual([{ v: 1 }, { v: 2 }]);
    expect(await t.rows()).toEqual([]);
  });
});

describe('recurring jobs', () => {
  it('runs right away, then every interval after the previous run', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock);
    let runs = 0;
    queue.define('purge', async () => {
      runs++;
    });
    queue.every('purge', 60_000);

    expect(await queue.runDue()).toBe(1);
    expect(await queue.runDue()).toBe(0);
    const [next] = await t.rows();
    expect(next).toMatchObject({ type: 'purge', status: 'queued' });
    expect(next?.runAt.getTime()).toBe(clock.now().getTime() + 60_000);

    clock.advance(59_999);
    expect(await queue.runDue()).toBe(0);
    clock.advance(1);
    expect(await queue.runDue()).toBe(1);
    expect(runs).toBe(2);
    expect(await t.rows()).toHaveLength(1);
  });

  it('keeps one occurrence across processes, also while one of them runs it', async () => {
    const clock = new TestClock();
    const a = t.queue(clock);
    const b = t.queue(clock);
    const gate = deferred();
    const started = deferred();
    let runs = 0;
    const slowPurge = async () => {
      runs++;
      started.resolve();
      await gate.promise;
    };
    a.define('purge', slowPurge);
    b.define('purge', slowPurge);
    a.every('purge', 60_000);
    b.every('purge', 60_000);

    const running = a.runDue();
    await started.promise;
    // The other process neither runs it nor queues a second occurrence while it runs.
    expect(await b.runDue()).toBe(0);
    expect((await t.rows()).map((row) => row.status)).toEqual(['running']);

    gate.resolve();
    expect(await running).toBe(1);
    expect(await b.runDue()).toBe(0);
    expect(await t.rows()).toMatchObject([{ status: 'queued' }]);
    expect(runs).toBe(1);
  });

  it('schedules the next occurrence after one fails for good', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock);
    queue.define(
      'purge',
      async () => {
        throw new Error('storage unavailable');
      },
      { maxAttempts: 1 },
    );
    queue.every('purge', 3_600_000);

    expect(await queue.runDue()).toBe(1);
    const rows = await t.rows();
    expect(rows.map((row) => [row.status, row.lastError])).toEqual([
      ['failed', 'storage unavailable'],
      ['queued', null],
    ]);
    expect(rows[1]?.runAt.getTime()).toBe(clock.now().getTime() + 3_600_000);
  });

  it('refuses to schedule a recurring job without a handler', async () => {
    const queue = t.queue(new TestClock());
    queue.every('nobody-handles-this', 1_000);
    await expect(queue.runDue()).rejects.toThrow('has no handler');
    expect(() => queue.start()).toThrow('has no handler');
  });
});

describe('pools', () => {
  it('runs a default job while every slot of the media pool is held by slow jobs', async () => {
    const clock = new TestClock();
    const queue = t.queue(clock, { concurrency: 2, pools: { media: 1 }, pollIntervalMs: 20 });
    const gate = deferred();
    const events: string[] = [];
    const delivered = deferred();
    const mediaStarted = deferred();
    queue.define<{ n: number }>(
      'media.slow',
      async ({ n }) => {
        events.push(`media ${n} started`);
        mediaStarted.resolve();
        await gate.promise;
        events.push(`media ${n} finished`);
      },
      { pool: 'media' },
    );
    queue.define('deliver', async () => {
      events.push('delivered');
      delivered.resolve();
    });
    // The audio work is queued first, more of it than all the slots of the process.
    for (let n = 1; n <= 3; n++) await queue.enqueue(t.db, 'media.slow', { n });
    clock.advance(1);
    await queue.enqueue(t.db, 'deliver', null);
    queue.start();

    await Promise.all([delivered.promise, mediaStarted.promise]);
    // One media job holds the only media slot; the delivery did not wait for it.
    expect([...events].sort()).toEqual(['delivered', 'media 1 started']);
    const media = (await t.rows()).filter((row) => row.type === 'media.slow');
    expect(media.map((row) => row.status).sort()).toEqual(['queued', 'queued', 'running']);
    gate.resolve();
    await queue.stop();
    expect(events.filter((event) => event.endsWith('finished')).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses a job type of a pool the queue does not have', () => {
    const queue = t.queue(new TestClock());
    expect(() => queue.define('x', async () => {}, { pool: 'media' })).toThrow('no pool "media"');
  });
});

describe('polling', () => {
  /** A clock on which every reading is a second after the one before. */
  class TickingClock extends TestClock {
    override now(): Date {
      this.advance(1_000);
      return super.now();
    }
  }

  it('runs a job that falls due between a poll’s claim and its look at the next one, not a poll interval later', async () => {
    for (const offset of [1_500, 2_500, 3_500, 4_500]) {
      const clock = new TickingClock(Date.parse('2026-01-01T00:00:00.000Z'));
      const queue = t.queue(clock, { pollIntervalMs: 600_000 });
      const ran = deferred();
      queue.define('soon', async () => ran.resolve());
      await queue.enqueue(t.db, 'soon', null, { runAt: new Date(clock.now().getTime() + offset) });
      queue.start();
      const done = await Promise.race([
        ran.promise.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 5_000)),
      ]);
      expect(done, `due ${offset} ms after it was queued`).toBe(true);
      await queue.stop();
    }
  });
});
