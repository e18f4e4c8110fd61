import { describe, expect, it } from 'vitest';
import { TestClock, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { linkIn, useMailbox } from '../../../test/helpers/mailbox.ts';
import { useSecondApp } from './fixtures/second-app.ts';
import {
  PASSWORD_RESET_TTL_MINUTES,
  PASSWORD_RESETS_PER_CLIENT,
  PASSWORD_RESETS_PER_EMAIL,
} from './password-reset.ts';

const clock = new TestClock(Date.parse('2031-06-01T09:00:00.000Z'));
const mailbox = useMailbox();
const ctx = useTestContext({ clock, env: () => ({ SMTP_URL: mailbox.url }) });
// A second process over the same database: what a reset ends must end there too.
const requestB = useSecondApp(ctx);

const RESET = /reset your password/i;
const CHANGED = /password was changed/i;
const NEW_PASSWORD = 'a brand new passphrase';
let client = 0;
/** A client address of its own per test, so the per-client budget of one test leaves the others alone. */
const nextClient = () => `198.51.100.${++client}`;

const askReset = (email: string, remoteAddress = '203.0.113.9') =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/password-reset', payload: { email }, remoteAddress });
const confirm = (token: string | null, password = NEW_PASSWORD) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/password-reset/confirm', payload: { token, password } });
const login = (email: string, password: string) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
const me = (token: string) => ctx.request({ method: 'GET', url: '/api/v1/auth/me', token });

async function resetToken(user: TestUser): Promise<string> {
  await ctx.app.services.jobs.runDue();
  return linkIn(mailbox.last(user.email, RESET), '/reset-password').token!;
}

describe('password reset by mail', () => {
  it('sets the new password, ends every session on every process and tells the address', async () => {
    const user = await ctx.newUser();
    const other = await login(user.email, user.password);
    const asked = await askReset(user.email.toUpperCase(), nextClient());
    expect(asked.statusCode).toBe(202);
    const token = await resetToken(user);
    expect(mailbox.last(user.email, RESET).text).toContain(`${PASSWORD_RESET_TTL_MINUTES} minutes`);
    // Asking does not end anything yet.
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await requestB({ method: 'GET', url: '/api/v1/auth/me', token: user.token })).statusCode).toBe(
      200,
    );

    const done = await confirm(token);
    expect(done.statusCode).toBe(204);
    expect(done.body).toBe('');

    for (const access of [user.token, other.json().access_token]) {
      expect((await me(access)).statusCode).toBe(401);
      expect((await requestB({ method: 'GET', url: '/api/v1/auth/me', token: access })).statusCode).toBe(401);
    }
    for (const refresh of [user.refreshToken, other.json().refresh_token]) {
      const res = await requestB({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        payload: { refresh_token: refresh },
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    const fresh = await login(user.email, NEW_PASSWORD);
    expect(fresh.statusCode).toBe(200);
    // Reading the mail at the address proved it is the account's own.
    expect(fresh.json().user.emailVerified).toBe(true);

    await ctx.app.services.jobs.runDue();
    expect(mailbox.last(user.email, CHANGED).text).toMatch(/signed out/);

    const again = await confirm(token, 'yet another passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_token');
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('answers an unknown address exactly like a known one, and mails nothing', async () => {
    const user = await ctx.newUser();
    const address = nextClient();
    const known = await askReset(user.email, address);
    const unknownEmail = `nobody-${ctx.unique()}@example.test`;
    const unknown = await askReset(unknownEmail, address);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
    await ctx.app.services.jobs.runDue();
    expect(mailbox.to(unknownEmail)).toEqual([]);
    expect(mailbox.to(user.email).filter((m) => RESET.test(m.subject))).toHaveLength(1);
  });

  it('sends a few links per address an hour, then answers the same and sends nothing', async () => {
    const user = await ctx.newUser();
    const address = nextClient();
    const answers = new Set<string>();
    for (let i = 0; i < PASSWORD_RESETS_PER_EMAIL + 2; i++) {
      const res = await askReset(user.email, address);
      expect(res.statusCode).toBe(202);
      answers.add(res.body);
    }
    expect(answers.size).toBe(1);
    await ctx.app.services.jobs.runDue();
    expect(mailbox.to(user.email).filter((m) => RESET.test(m.subject))).toHaveLength(
      PASSWORD_RESETS_PER_EMAIL,
    );
    // Only the newest link works.
    const links = mailbox.to(user.email).filter((m) => RESET.test(m.subject));
    const oldest = linkIn(links[0]!, '/reset-password').token;
    expect((await confirm(oldest)).json().code).toBe('invalid_token');
    expect((await confirm(linkIn(links.at(-1)!, '/reset-password').token)).statusCode).toBe(204);
  });

  it('answers 429 to a client that asks for too many resets', async () => {
    const address = nextClient();
    for (let i = 0; i < PASSWORD_RESETS_PER_CLIENT; i++)
      expect((await askReset(`someone-${ctx.unique()}@example.test`, address)).statusCode).toBe(202);
    const limited = await askReset(`someone-${ctx.unique()}@example.test`, address);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await askReset(`someone-${ctx.unique()}@example.test`, nextClient())).statusCode).toBe(202);
  });

  it('refuses a weak password (the link stays usable) and an expired link', async () => {
    const user = await ctx.newUser();
    await askReset(user.email, nextClient());
    const token = await resetToken(user);
    const weak = await confirm(token, '12345678');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: 'validation_failed', details: [{ path: '/body/password' }] });
    const own = await confirm(token, user.email);
    expect(own.statusCode).toBe(400);
    expect((await me(user.token)).statusCode).toBe(200);

    clock.advance(PASSWORD_RESET_TTL_MINUTES * 60_000 + 1000);
    const late = await confirm(token);
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('invalid_token');
    expect((await login(user.email, user.password)).statusCode).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(401);
  });

  it('refuses bodies that are not a token and a password with 400', async () => {
    for (const payload of [
      {},
      { token: 'x' },
      { token: 'x', password: 'short' },
      { password: NEW_PASSWORD },
    ]) {
      const res = await ctx.request({ method: 'POST', url: '/api/v1/auth/password-reset/confirm', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await confirm('no-such-token')).json().code).toBe('invalid_token');
    const empty = await ctx.request({ method: 'POST', url: '/api/v1/auth/password-reset', payload: {} });
    expect(empty.statusCode).toBe(400);
  });
});
