import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { closedPort } from '../../../test/helpers/ports.ts';
import type { App } from '../../app-types.ts';
import { plans, teams } from '../../db/schema/index.ts';
import { buildSecondApp, type Requester, requesterFor } from './fixtures/second-app.ts';
import { StallingProxy } from './fixtures/stalling-proxy.ts';

type Response = Awaited<ReturnType<Requester>>;

const REDIS_URL = 'redis://127.0.0.1:6379';
// Any route answers a valid key (an unknown one with 404 after authentication), so the limit is all we see.
const PROBE = '/api/v1/no-such-route';

/** A team on a plan of its own with `requestsPerMinute`, and an API key of it. */
async function teamOnPlan(
  ctx: TestContext,
  requestsPerMinute: number,
): Promise<{ team: TestTeam; key: string }> {
  const team = await ctx.newTeam();
  const planId = `test-${ctx.unique()}`;
  await ctx.database.db.insert(plans).values({
    id: planId,
    name: `Test ${requestsPerMinute}/min`,
    apiRequestsPerMinute: requestsPerMinute,
    storageQuotaBytes: 1_000_000,
    maxMembers: 5,
  });
  await ctx.database.db.update(teams).set({ planId }).where(eq(teams.id, team.id));
  return { team, key: await ctx.newApiKey(team) };
}

/**
 * Team ids start at 1 in every cloned database, and Redis outlives test runs: starting this database's ids
 * at a random point keeps each run's Redis counters apart.
 */
async function useFreshTeamIds(ctx: TestContext): Promise<void> {
  await ctx.database.db.execute(
    sql.raw(`alter table teams alter column id restart with ${randomInt(1e6, 2e9)}`),
  );
}

function rateHeaders(res: Response) {
  return {
    limit: Number(res.headers['ratelimit-limit']),
    remaining: Number(res.headers['ratelimit-remaining']),
    reset: Number(res.headers['ratelimit-reset']),
  };
}

function expectRateHeaders(res: Response, limit: number, remaining: number) {
  const headers = rateHeaders(res);
  expect(headers).toEqual({ limit, remaining, reset: expect.any(Number) });
  expect(headers.reset).toBeGreaterThanOrEqual(1);
  expect(headers.reset).toBeLessThanOrEqual(60);
  // The same count in the fields of the IETF draft (draft-ietf-httpapi-ratelimit-headers).
  expect(res.headers['ratelimit-policy']).toBe(`"default";q=${limit};w=60`);
  expect(res.headers.ratelimit).toBe(`"default";r=${remaining};t=${headers.reset}`);
}

function expectRateLimited(res: Response, limit: number) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ error: 'Too many requests', code: 'rate_limited' });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expectRateHeaders(res, limit, 0);
}

describe('API-key rate limits (in memory)', () => {
  const ctx = useTestContext();

  it('puts RateLimit-Limit, -Remaining and -Reset on every key response, from the free plan (120/min)', async () => {
    const team = await ctx.newTeam();
    const key = await ctx.newApiKey(team);
    const first = await ctx.request({ method: 'GET', url: PROBE, token: key });
    expect(first.statusCode).toBe(404);
    expectRateHeaders(first, 120, 119);
    // An error answer of the auth layer carries them as well.
    const sessionOnly = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: key });
    expect(sessionOnly.statusCode).toBe(403);
    expectRateHeaders(sessionOnly, 120, 118);
  });

  it('answers 429 rate_limited with Retry-After past the plan limit', async () => {
    const { key } = await teamOnPlan(ctx, 3);
    for (const remaining of [2, 1, 0]) {
      const res = await ctx.request({ method: 'GET', url: PROBE, token: key });
      expect(res.statusCode).toBe(404);
      expectRateHeaders(res, 3, remaining);
    }
    expectRateLimited(await ctx.request({ method: 'GET', url: PROBE, token: key }), 3);
    expectRateLimited(await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: key }), 3);
  });

  it('counts per team: the keys of one team share the limit, other teams keep theirs', async () => {
    const { team, key } = await teamOnPlan(ctx, 2);
    const secondKey = await ctx.newApiKey(team);
    const other = await teamOnPlan(ctx, 2);
    expect((await ctx.request({ method: 'GET', url: PROBE, token: key })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'GET', url: PROBE, token: secondKey })).statusCode).toBe(404);
    expectRateLimited(await ctx.request({ method: 'GET', url: PROBE, token: key }), 2);
    expectRateLimited(await ctx.request({ method: 'GET', url: PROBE, token: secondKey }), 2);
    const otherTeam = await ctx.request({ method: 'GET', url: PROBE, token: other.key });
    expect(otherTeam.statusCode).toBe(404);
    expectRateHeaders(otherTeam, 2, 1);
  });

  it("counts session requests per person, apart from their team's key budget", async () => {
    const { team, key } = await teamOnPlan(ctx, 1);
    await ctx.request({ method: 'GET', url: PROBE, token: key });
    expect((await ctx.request({ method: 'GET', url: PROBE, token: key })).statusCode).toBe(429);
    // The default session budget: 1200 a minute (creating the key above was one of the owner's requests).
    const me = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: team.owner.token });
    expect(me.statusCode).toBe(200);
    expectRateHeaders(me, 1200, 1198);
    const probe = await ctx.request({ method: 'GET', url: PROBE, token: team.owner.token });
    expect(probe.statusCode).toBe(404);
    expectRateHeaders(probe, 1200, 1197);
  });
});

describe('session rate limits', () => {
  const ctx = useTestContext({ env: { SESSION_RATE_LIMIT_PER_MINUTE: '3' } });

  it('answer 429 with Retry-After past SESSION_RATE_LIMIT_PER_MINUTE, per person over all their sessions', async () => {
    const user = await ctx.newUser();
    const login = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: user.password },
    });
    const second = login.json().access_token as string;
    for (const [token, remaining] of [
      [user.token, 2],
      [second, 1],
      [user.token, 0],
    ] as const) {
      const res = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token });
      expect(res.statusCode).toBe(200);
      expectRateHeaders(res, 3, remaining);
    }
    expectRateLimited(await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: second }), 3);
    // Someone else keeps their own budget.
    const other = await ctx.newUser();
    expect(
      (await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: other.token })).statusCode,
    ).toBe(200);
  });
});

describe('session rate limits shared through Redis', () => {
  const ctx = useTestContext({
    env: { REDIS_URL, REDIS_TIMEOUT_MS: '10000', SESSION_RATE_LIMIT_PER_MINUTE: '4' },
  });
  let appB: App;
  beforeAll(async () => {
    appB = await buildSecondApp(ctx);
  });
  afterAll(async () => {
    await appB?.close();
  });

  it('count one budget over two processes', async () => {
    const user = await ctx.newUser();
    const requestB = requesterFor(appB);
    for (const [i, send] of [ctx.request, requestB, ctx.request, requestB].entries()) {
      const res = await send({ method: 'GET', url: '/api/v1/auth/me', token: user.token });
      expect(res.statusCode, `request ${i + 1}`).toBe(200);
      expectRateHeaders(res, 4, 3 - i);
    }
    expectRateLimited(await requestB({ method: 'GET', url: '/api/v1/auth/me', token: user.token }), 4);
  });
});

describe('API-key rate limits shared through Redis', () => {
  // Exact shared counts need every command to reach Redis, also on a loaded machine.
  const ctx = useTestContext({ env: { REDIS_URL, REDIS_TIMEOUT_MS: '10000' } });
  let appB: App;
  let requestB: Requester;

  beforeAll(async () => {
    await useFreshTeamIds(ctx);
    appB = await buildSecondApp(ctx);
    requestB = requesterFor(appB);
  });
  afterAll(async () => {
    await appB?.close();
  });

  it('enforces ONE limit over two processes: requests split across A and B are counted together', async () => {
    const { key } = await teamOnPlan(ctx, 4);
    const sequence = [ctx.request, requestB, ctx.request, requestB];
    for (const [i, send] of sequence.entries()) {
      const res = await send({ method: 'GET', url: PROBE, token: key });
      expect(res.statusCode, `request ${i + 1}`).toBe(404);
      expectRateHeaders(res, 4, 3 - i);
    }
    expectRateLimited(await ctx.request({ method: 'GET', url: PROBE, token: key }), 4);
    expectRateLimited(await requestB({ method: 'GET', url: PROBE, token: key }), 4);
  });

  it('shares the count from the very first request of a process that just started', async () => {
    const { key } = await teamOnPlan(ctx, 4);
    for (let i = 0; i < 2; i++) await ctx.request({ method: 'GET', url: PROBE, token: key });
    const appC = await buildSecondApp(ctx);
    try {
      const res = await requesterFor(appC)({ method: 'GET', url: PROBE, token: key });
      expect(res.statusCode).toBe(404);
      expectRateHeaders(res, 4, 1);
    } finally {
      await appC.close();
    }
  });

  it('counts a concurrent burst across both processes exactly', async () => {
    const { key } = await teamOnPlan(ctx, 5);
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? requestB : ctx.request)({ method: 'GET', url: PROBE, token: key }),
      ),
    );
    const statuses = burst.map((res) => res.statusCode);
    expect(statuses.filter((s) => s === 404)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });
});

describe('API-key rate limits when Redis is down', () => {
  const env: Record<string, string> = {};
  beforeAll(async () => {
    env.REDIS_URL = `redis://127.0.0.1:${await closedPort()}`;
  });
  // Built after the hook above has set REDIS_URL (hooks run in the order they are registered).
  const ctx = useTestContext({ env });

  it('still answers (no 500) and limits in memory', async () => {
    expect(ctx.config.redisUrl).toBe(env.REDIS_URL);
    const { key } = await teamOnPlan(ctx, 2);
    for (const remaining of [1, 0]) {
      const res = await ctx.request({ method: 'GET', url: PROBE, token: key });
      expect(res.statusCode).toBe(404);
      expectRateHeaders(res, 2, remaining);
    }
    expectRateLimited(await ctx.request({ method: 'GET', url: PROBE, token: key }), 2);
  });

  it('keeps login throttling working on the in-memory insurance', async () => {
    const user = await ctx.newUser();
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('API-key rate limits when Redis stops answering', () => {
  const env: Record<string, string> = {};
  let proxy: StallingProxy;
  beforeAll(async () => {
    proxy = await StallingProxy.start('127.0.0.1', 6379);
    env.REDIS_URL = `redis://127.0.0.1:${proxy.port}`;
  });
  afterAll(async () => {
    await proxy?.close();
  });
  const ctx = useTestContext({ env });

  it('falls back to memory after a short wait instead of holding the request', async () => {
    await useFreshTeamIds(ctx);
    const { key } = await teamOnPlan(ctx, 10);
    const before = await ctx.request({ method: 'GET', url: PROBE, token: key });
    expect(before.statusCode).toBe(404);
    expectRateHeaders(before, 10, 9);

    proxy.stall();
    for (let i = 0; i < 2; i++) {
      const res = await ctx.request({ method: 'GET', url: PROBE, token: key });
      expect(res.statusCode).toBe(404);
      expect(rateHeaders(res).limit).toBe(10);
    }
  });
});
