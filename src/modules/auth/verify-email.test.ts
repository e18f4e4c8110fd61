import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestClock, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { linkIn, useMailbox } from '../../../test/helpers/mailbox.ts';
import { describeSecurityMatrix } from '../../../test/helpers/security-matrix.ts';
import { mailTokens } from '../../db/schema/index.ts';
import { sha256 } from '../../shared/hash.ts';
import { VERIFICATION_MAILS_PER_HOUR, VERIFY_EMAIL_TTL_HOURS } from './email-verification.ts';

const clock = new TestClock(Date.parse('2031-05-01T09:00:00.000Z'));
const mailbox = useMailbox();
const ctx = useTestContext({
  clock,
  env: () => ({ SMTP_URL: mailbox.url, APP_URL: 'https://app.example.test' }),
});

const HOUR = 3_600_000;
const VERIFY = /verify your e-mail/i;

const me = (token: string) => ctx.request({ method: 'GET', url: '/api/v1/auth/me', token });
const verify = (token: string | null) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/verify-email', payload: { token } });
const resend = (token: string) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/verify-email/resend', token });

/** The token of the latest verification mail to the user, once the queue sent it. */
async function mailedToken(user: TestUser): Promise<string> {
  await ctx.app.services.jobs.runDue();
  const { url, token } = linkIn(mailbox.last(user.email, VERIFY), '/verify-email');
  expect(url.origin + url.pathname).toBe('https://app.example.test/verify-email');
  return token!;
}

describe('e-mail verification', () => {
  it('mails a link at sign-up whose token verifies the address, once', async () => {
    const user = await ctx.newUser();
    const signedUp = await me(user.token);
    expect(signedUp.json().emailVerified).toBe(false);
    const token = await mailedToken(user);
    const mail = mailbox.last(user.email, VERIFY);
    expect(mail.text).toContain(`${VERIFY_EMAIL_TTL_HOURS} hours`);
    expect(mail.html).toContain('/verify-email?token=');
    // Only the hash is stored.
    const [stored] = await ctx.database.db
      .select()
      .from(mailTokens)
      .where(eq(mailTokens.tokenHash, sha256(token)));
    expect(stored).toMatchObject({ purpose: 'verify_email', email: user.email });
    const tokens = await ctx.database.db.select({ hash: mailTokens.tokenHash }).from(mailTokens);
    expect(tokens.map((t) => t.hash)).not.toContain(token);

    const res = await verify(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ purpose: 'verify_email', email: user.email });
    // Spent: nothing of it is kept.
    expect(
      await ctx.database.db
        .select()
        .from(mailTokens)
        .where(eq(mailTokens.tokenHash, sha256(token))),
    ).toEqual([]);
    expect((await me(user.token)).json().emailVerified).toBe(true);
    const login = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(login.json().user.emailVerified).toBe(true);

    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_token');
  });

  it('refuses an unknown or malformed token with 400 and changes nothing', async () => {
    const user = await ctx.newUser();
    for (const token of ['no-such-token', 'x'.repeat(256)]) {
      const res = await verify(token);
      expect(res.statusCode, token).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_token' });
    }
    for (const payload of [{}, { token: '' }, { token: 'x'.repeat(257) }, { token: 5 }]) {
      const res = await ctx.request({ method: 'POST', url: '/api/v1/auth/verify-email', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await me(user.token)).json().emailVerified).toBe(false);
  });

  it('refuses a link past its validity', async () => {
    const user = await ctx.newUser();
    const token = await mailedToken(user);
    clock.advance(VERIFY_EMAIL_TTL_HOURS * HOUR + 1000);
    const res = await verify(token);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_token');
    // The access token expired with the link: a fresh sign-in tells.
    const login = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(login.json().user.emailVerified).toBe(false);
  });

  it('resends a fresh link that replaces the earlier one, a few times an hour', async () => {
    const user = await ctx.newUser();
    const first = await mailedToken(user);
    expect((await resend(user.token)).statusCode).toBe(204);
    const second = await mailedToken(user);
    expect(second).not.toBe(first);
    expect(mailbox.to(user.email).filter((m) => VERIFY.test(m.subject))).toHaveLength(2);

    const stale = await verify(first);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().code).toBe('invalid_token');

    for (let sent = 1; sent < VERIFICATION_MAILS_PER_HOUR; sent++)
      expect((await resend(user.token)).statusCode).toBe(204);
    const limited = await resend(user.token);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await ctx.app.services.jobs.runDue();
    expect(mailbox.to(user.email).filter((m) => VERIFY.test(m.subject))).toHaveLength(
      1 + VERIFICATION_MAILS_PER_HOUR,
    );

    // The newest link still works; after that there is nothing left to verify.
    const newest = linkIn(mailbox.last(user.email, VERIFY), '/verify-email').token;
    expect((await verify(newest)).statusCode).toBe(200);
    const done = await resend(user.token);
    expect(done.statusCode).toBe(409);
    expect(done.json().code).toBe('conflict');
  });

  it('answers 409 to a resend for an address that is verified already, and sends nothing', async () => {
    const user = await ctx.newUser();
    expect((await verify(await mailedToken(user))).statusCode).toBe(200);
    const before = mailbox.to(user.email).length;
    expect((await resend(user.token)).statusCode).toBe(409);
    await ctx.app.services.jobs.runDue();
    expect(mailbox.to(user.email)).toHaveLength(before);
  });

  it('tells a person with an unverified address what to do when that is why they are refused', async () => {
    const { errors } = await import('../../shared/errors.ts');
    const error = errors.emailUnverified();
    expect(error.statusCode).toBe(403);
    expect(error.message).toContain('/api/v1/auth/verify-email/resend');
    expect(error.message).toMatch(/invitation/);
  });
});

describeSecurityMatrix(ctx, [
  {
    method: 'POST',
    path: '/api/v1/auth/verify-email/resend',
    build: () => ({ url: '/api/v1/auth/verify-email/resend' }),
    teamScoped: false,
  },
]);
