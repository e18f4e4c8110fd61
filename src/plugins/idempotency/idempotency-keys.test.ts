import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestClock, useTestContext } from '../../../test/helpers/context.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';
import type { Clock } from '../../shared/clock.ts';
import { systemClock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { IDEMPOTENCY_DEFAULTS, IdempotencyKeys, type IdempotencySettings } from './idempotency-keys.ts';

// The coordinator on the real database, with waits short enough to reach their bounds in a test.
const ctx = useTestContext();

const ANSWER = {
  status: 201,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: '{"id":1}',
};
let sequence = 0;
const newKey = () => ({ principal: 'user:00000000-0000-4000-8000-000000000000', key: `k-${sequence++}` });

function keysWith(settings: Partial<IdempotencySettings>, clock: Clock = new TestClock()) {
  return new IdempotencyKeys(ctx.database.db, clock, {
    ...IDEMPOTENCY_DEFAULTS,
    maxWaitMs: 100,
    ...settings,
  });
}

async function rowOf(id: { principal: string; key: string }) {
  const [row] = await ctx.database.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.principal, id.principal), eq(idempotencyKeys.key, id.key)));
  return row;
}

async function claimed(keys: IdempotencyKeys, id: { principal: string; key: string }, hash = 'h') {
  const begun = await keys.begin(id, hash);
  if (begun.kind !== 'run') throw new Error('expected to run');
  return begun.claim;
}

describe('the idempotency coordinator', () => {
  it('answers 409 idempotency_key_in_use when the first request runs past the wait, and runs nothing', async () => {
    const keys = keysWith({ maxWaitMs: 50 });
    const id = newKey();
    const first = await claimed(keys, id);
    const error = await keys.begin(id, 'h').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      statusCode: 409,
      code: 'idempotency_key_in_use',
      headers: { 'retry-after': '1' },
    });
    expect(await first.store(ANSWER)).toBe(true);
    expect(await keys.begin(id, 'h')).toEqual({ kind: 'replay', answer: ANSWER });
  });

  it('lets a waiting duplicate replay the answer once the first stores it', async () => {
    const keys = keysWith({ maxWaitMs: 10_000 });
    const id = newKey();
    const first = await claimed(keys, id);
    const duplicate = keys.begin(id, 'h');
    await sleep(30);
    await first.store(ANSWER);
    expect(await duplicate).toEqual({ kind: 'replay', answer: ANSWER });
  });

  it('lets a waiting duplicate run once the first released its claim (it failed)', async () => {
    const keys = keysWith({ maxWaitMs: 10_000 });
    const id = newKey();
    const first = await claimed(keys, id);
    const duplicate = keys.begin(id, 'h');
    await sleep(30);
    await first.release();
    const begun = await duplicate;
    expect(begun.kind).toBe('run');
    if (begun.kind === 'run') await begun.claim.release();
  });

  it('fences a claim that was taken over: the late first answer is not stored over the new one', async () => {
    const clock = new TestClock();
    const keys = keysWith({ leaseMs: 1_000 }, clock);
    const id = newKey();
    const stale = await claimed(keys, id);
    clock.advance(1_000);
    const fresh = await claimed(keys, id);
    expect(await stale.store({ ...ANSWER, body: '{"id":"stale"}' })).toBe(false);
    await stale.release();
    expect(await rowOf(id)).toMatchObject({ responseStatus: null });
    expect(await fresh.store(ANSWER)).toBe(true);
    expect(await rowOf(id)).toMatchObject({ responseBody: ANSWER.body, lockedUntil: null });
  });

  it('renews the lease while the request runs, so a live request is not taken over', async () => {
    const keys = keysWith({ leaseMs: 1_500, maxWaitMs: 0 }, systemClock);
    const id = newKey();
    const claim = await claimed(keys, id);
    const leasedUntil = (await rowOf(id))!.lockedUntil!.getTime();
    // Two lease periods: without renewal the claim would be up for takeover.
    await sleep(3_000);
    expect((await rowOf(id))!.lockedUntil!.getTime()).toBeGreaterThan(leasedUntil);
    await expect(keys.begin(id, 'h')).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    expect(await claim.store(ANSWER)).toBe(true);
  });

  it('answers 409 idempotency_key_reused to another request while the first still runs', async () => {
    const keys = keysWith({});
    const id = newKey();
    const first = await claimed(keys, id, 'first');
    await expect(keys.begin(id, 'second')).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    await first.release();
  });
});
