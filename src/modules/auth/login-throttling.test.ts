import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';

// rate-limiter-flexible counts in real time, so the window is short and expiry is a real wait.
const MAX_FAILURES = 3;
const WINDOW_SECONDS = 2;
const ctx = useTestContext({
  env: { LOGIN_MAX_FAILURES: String(MAX_FAILURES), LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS) },
});

let addressSequence = 0;
/** Each test logs in from its own address, so the per-address limit of one test never trips another. */
const newAddress = () => `203.0.113.${++addressSequence}`;

const login = (email: string, password: string, remoteAddress: string) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress });

function expectRateLimited(res: Awaited<ReturnType<typeof login>>) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ error: 'Too many requests', code: 'rate_limited' });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
}

describe('login throttling', () => {
  it(`answers 429 after ${MAX_FAILURES} failures for one e-mail, even with the right password`, async () => {
    const user = await ctx.newUser();
    const from = newAddress();
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await login(user.email, 'wrong password!', from)).statusCode).toBe(401);
    }
    expectRateLimited(await login(user.email, user.password, from));
    // The e-mail is throttled whatever its case and wherever the attempt comes from.
    expectRateLimited(await login(user.email.toUpperCase(), user.password, newAddress()));
  });

  it('treats an unknown e-mail the same way (no hint whether the account exists)', async () => {
    const from = newAddress();
    const unknown = `nobody-${ctx.unique()}@example.test`;
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await login(unknown, 'whatever it is', from)).statusCode).toBe(401);
    }
    expectRateLimited(await login(unknown, 'whatever it is', from));
  });

  it('resets the count for the e-mail on a successful login before the limit', async () => {
    const user = await ctx.newUser();
    const from = newAddress();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < MAX_FAILURES - 1; i++) {
        expect((await login(user.email, 'wrong password!', from)).statusCode).toBe(401);
      }
      expect((await login(user.email, user.password, from)).statusCode).toBe(200);
    }
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await login(user.email, 'wrong password!', from)).statusCode).toBe(401);
    }
    expectRateLimited(await login(user.email, user.password, from));
  });

  it('counts concurrent attempts: a burst gets no more than the allowed failures', async () => {
    const user = await ctx.newUser();
    const from = newAddress();
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => login(user.email, 'wrong password!', from)),
    );
    const statuses = burst.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10 - MAX_FAILURES);
    expectRateLimited(await login(user.email, user.password, from));
  });

  it('limits failures per client address across many e-mails', async () => {
    const from = newAddress();
    const perAddress = MAX_FAILURES * 4;
    for (let i = 0; i < perAddress; i++) {
      const res = await login(`guess-${i}-${ctx.unique()}@example.test`, 'whatever it is', from);
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const user = await ctx.newUser();
    expectRateLimited(await login(user.email, user.password, from));
    // Another address is not affected.
    expect((await login(user.email, user.password, newAddress())).statusCode).toBe(200);
  });

  it('does not count successful logins against the client address', async () => {
    const user = await ctx.newUser();
    const from = newAddress();
    for (let i = 0; i < MAX_FAILURES * 4 + 2; i++) {
      expect((await login(user.email, user.password, from)).statusCode).toBe(200);
    }
  });

  it('lets the e-mail in again once the window has passed', async () => {
    const user = await ctx.newUser();
    const from = newAddress();
    for (let i = 0; i < MAX_FAILURES; i++) await login(user.email, 'wrong password!', from);
    expectRateLimited(await login(user.email, user.password, from));
    await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 200));
    expect((await login(user.email, user.password, from)).statusCode).toBe(200);
  });
});
