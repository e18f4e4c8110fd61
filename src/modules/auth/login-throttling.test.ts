import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestContext } from '../../../test/helpers/context.ts';
import { users } from '../../db/schema/index.ts';
import { normaliseEmail } from '../../shared/email.ts';
import { LOGIN_LIMITERS } from './auth.service.ts';

// rate-limiter-flexible counts in real time, so the window is short and expiry is a real wait.
const MAX_FAILURES = 3;
const WINDOW_SECONDS = 2;
const ENV = {
  LOGIN_MAX_FAILURES: String(MAX_FAILURES),
  LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
};
const PER_ADDRESS = MAX_FAILURES * 4;
const ctx = useTestContext({ env: ENV });

let addressSequence = 0;
/** Each test logs in from its own address, so the per-address limit of one test never trips another. */
const newAddress = () => `203.0.113.${++addressSequence}`;

const loginOn = (
  on: TestContext,
  email: string,
  password: string,
  remoteAddress: string,
  forwardedFor?: string,
) =>
  on.request({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
const login = (email: string, password: string, remoteAddress: string, forwardedFor?: string) =>
  loginOn(ctx, email, password, remoteAddress, forwardedFor);

/** Spends the address's whole failure budget on distinct unknown e-mails. */
async function exhaustAddress(on: TestContext, remoteAddress: string, forwardedFor?: string) {
  for (let i = 0; i < PER_ADDRESS; i++) {
    const res = await loginOn(
      on,
      `guess-${i}-${on.unique()}@example.test`,
      'whatever it is',
      remoteAddress,
      forwardedFor,
    );
    expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
  }
}

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

describe('login throttling: the client address', () => {
  it('ignores X-Forwarded-For without TRUST_PROXY: forwarded clients of one peer share its budget', async () => {
    expect(ctx.config.trustProxy).toBe(false);
    const peer = newAddress();
    await exhaustAddress(ctx, peer, '198.51.100.1');
    const user = await ctx.newUser();
    expectRateLimited(await login(user.email, user.password, peer, '198.51.100.2'));
  });

  it('asks the address first: once it is refused, the e-mails it tries are not stored', async () => {
    const limits = ctx.app.services.limits;
    const from = newAddress();
    await exhaustAddress(ctx, from);
    const stored = limits.memoryKeys(LOGIN_LIMITERS.email);
    for (let i = 0; i < 20; i++) {
      expectRateLimited(await login(`spray-${i}-${ctx.unique()}@example.test`, 'whatever it is', from));
    }
    expect(limits.memoryKeys(LOGIN_LIMITERS.email)).toBe(stored);
  });

  describe('with TRUST_PROXY naming the proxy', () => {
    // app.inject connects from 127.0.0.1: that is the proxy here.
    const proxied = useTestContext({ env: { ...ENV, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' } });

    it('counts per forwarded client: one client locked out, the next one behind the same proxy signs in', async () => {
      const user = await proxied.newUser();
      await exhaustAddress(proxied, '127.0.0.1', '198.51.100.10');
      expectRateLimited(await loginOn(proxied, user.email, user.password, '127.0.0.1', '198.51.100.10'));
      const other = await loginOn(proxied, user.email, user.password, '127.0.0.1', '198.51.100.11');
      expect(other.statusCode).toBe(200);
    });

    it('believes only the named proxies: a client sending X-Forwarded-For itself is counted by its own address', async () => {
      const user = await proxied.newUser();
      const direct = newAddress();
      for (let i = 0; i < PER_ADDRESS; i++) {
        const forged = `192.0.2.${i + 1}`;
        const res = await loginOn(
          proxied,
          `guess-${i}-${proxied.unique()}@example.test`,
          'whatever',
          direct,
          forged,
        );
        expect(res.statusCode).toBe(401);
      }
      expectRateLimited(await loginOn(proxied, user.email, user.password, direct, '192.0.2.200'));
    });
  });
});

describe('login throttling: one normalised e-mail', () => {
  const fullwidth = (text: string) =>
    text.replace(/[!-~]/g, (c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0));
  /** Case and Unicode spellings of one address: JavaScript and PostgreSQL lower-case some of them differently. */
  const variantsOf = (email: string) => {
    const [local, domain] = email.split('@') as [string, string];
    return [
      email.toUpperCase(),
      `${local}@${domain.toUpperCase()}`,
      `\u212a${local.slice(1)}@${domain}`, // Kelvin sign for the leading k
      `${local}@${domain.replace(/s/g, '\u017f')}`, // long s
      fullwidth(email),
    ];
  };
  const newKUser = () => ctx.newUser({ email: `k-${ctx.unique()}@example.test` });

  it('charges every variant to one budget', async () => {
    const user = await newKUser();
    const variants = variantsOf(user.email).slice(2); // Kelvin sign, long s, fullwidth
    expect(variants).toHaveLength(MAX_FAILURES);
    for (const variant of variants) {
      expect((await login(variant, 'wrong password!', newAddress())).statusCode).toBe(401);
    }
    expectRateLimited(await login(user.email, user.password, newAddress()));
    for (const variant of variantsOf(user.email))
      expectRateLimited(await login(variant, user.password, newAddress()));
  });

  it('signs every variant in to the one account', async () => {
    const user = await newKUser();
    for (const variant of variantsOf(user.email)) {
      const res = await login(variant, user.password, newAddress());
      expect(res.statusCode, variant).toBe(200);
      expect(res.json().user).toEqual({ id: user.id, email: user.email, name: null, emailVerified: false });
    }
  });

  it('stores a new address normalised and refuses a second account for any variant', async () => {
    const email = `Mixed.Case-${ctx.unique()}@Example.TEST`;
    const user = await ctx.newUser({ email });
    for (const variant of [...variantsOf(email.toLowerCase()), email.toLowerCase()]) {
      const res = await ctx.request({
        method: 'POST',
        url: '/api/v1/auth/signup',
        payload: { email: variant, password: `pw-${ctx.unique()}-secret` },
      });
      // ASCII spellings are the same address (409); the others are not valid addresses to sign up with (400).
      expect([400, 409], variant).toContain(res.statusCode);
    }
    const rows = await ctx.database.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(sql`lower(${users.email}) = ${normaliseEmail(email)}`);
    expect(rows).toEqual([{ id: user.id, email: normaliseEmail(email) }]);
  });
});
