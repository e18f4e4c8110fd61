import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { linkIn, useMailbox } from '../../../test/helpers/mailbox.ts';
import { describeSecurityMatrix } from '../../../test/helpers/security-matrix.ts';
import { users } from '../../db/schema/index.ts';

const mailbox = useMailbox();
const ctx = useTestContext({ env: () => ({ SMTP_URL: mailbox.url }) });

const CONFIRM = /confirm your new e-mail/i;
const CHANGED = /e-mail address was changed/i;
const address = () => `moved-${ctx.unique()}@example.test`;

const change = (token: string, email: string, password: string) =>
  ctx.request({ method: 'POST', url: '/api/v1/user/email', token, payload: { email, password } });
const verify = (token: string | null) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/verify-email', payload: { token } });
const login = (email: string, password: string) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });

async function confirmToken(to: string): Promise<string> {
  await ctx.app.services.jobs.runDue();
  return linkIn(mailbox.last(to, CONFIRM), '/verify-email').token!;
}

describe('changing the e-mail address', () => {
  it('moves the account only once the link mailed to the new address is opened, and tells the old one', async () => {
    const user = await ctx.newUser();
    const next = address();
    const asked = await change(user.token, next.toUpperCase(), user.password);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ pendingEmail: next, expiresAt: expect.any(String) });
    const token = await confirmToken(next);

    // Until confirmed, the old address signs in and the new one does not.
    expect((await login(user.email, user.password)).statusCode).toBe(200);
    expect((await login(next, user.password)).statusCode).toBe(401);

    const res = await verify(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ purpose: 'change_email', email: next });
    const me = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: user.token });
    expect(me.json()).toMatchObject({ email: next, emailVerified: true });
    expect((await login(next, user.password)).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(401);

    await ctx.app.services.jobs.runDue();
    const notice = mailbox.last(user.email, CHANGED);
    expect(notice.text).toContain(next);
    expect(notice.text).toMatch(/if this was not you/i);
    expect(notice.text).not.toMatch(/https?:\/\//);
    expect((await verify(token)).json().code).toBe('invalid_token');
  });

  it('needs the right current password, and refuses an address another account has (409)', async () => {
    const user = await ctx.newUser();
    const other = await ctx.newUser();
    const wrong = await change(user.token, address(), 'not my password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'validation_failed', details: [{ path: '/body/password' }] });
    const takenNow = await change(user.token, other.email.toUpperCase(), user.password);
    expect(takenNow.statusCode).toBe(409);
    const own = await change(user.token, user.email, user.password);
    expect(own.statusCode).toBe(409);
    for (const email of ['not an address', '']) {
      expect((await change(user.token, email, user.password)).statusCode).toBe(400);
    }
    await ctx.app.services.jobs.runDue();
    expect(mailbox.to(other.email).filter((m) => CONFIRM.test(m.subject))).toEqual([]);
  });

  it('answers 409 at confirmation when another account took the address meanwhile', async () => {
    const user = await ctx.newUser();
    const next = address();
    expect((await change(user.token, next, user.password)).statusCode).toBe(202);
    const token = await confirmToken(next);
    await ctx.newUser({ email: next });
    const res = await verify(token);
    expect(res.statusCode).toBe(409);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.email).toBe(user.email);
  });

  it('lets only the newest request confirm', async () => {
    const user = await ctx.newUser();
    const first = address();
    const second = address();
    expect((await change(user.token, first, user.password)).statusCode).toBe(202);
    const stale = await confirmToken(first);
    expect((await change(user.token, second, user.password)).statusCode).toBe(202);
    expect((await verify(stale)).json().code).toBe('invalid_token');
    expect((await verify(await confirmToken(second))).json()).toEqual({
      purpose: 'change_email',
      email: second,
    });
  });

  it('refuses an account without a password: its identity provider owns the address', async () => {
    const user = await ctx.newUser();
    await ctx.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
    const res = await change(user.token, address(), 'anything at all');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/identity provider/);
  });
});

describeSecurityMatrix(ctx, [
  {
    method: 'POST',
    path: '/api/v1/user/email',
    build: () => ({ url: '/api/v1/user/email', payload: { email: 'x@example.test', password: 'whatever' } }),
    teamScoped: false,
  },
]);
