import { describe, expect, it } from 'vitest';
import { type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { useMailbox } from '../../../test/helpers/mailbox.ts';
import { describeSecurityMatrix } from '../../../test/helpers/security-matrix.ts';
import { useSecondApp } from '../auth/fixtures/second-app.ts';

const mailbox = useMailbox();
const ctx = useTestContext({ env: () => ({ SMTP_URL: mailbox.url, TRUST_PROXY: '127.0.0.1' }) });
const requestB = useSecondApp(ctx);

type Session = {
  id: string;
  userAgent: string | null;
  ip: string | null;
  lastUsedAt: string;
  current: boolean;
};

const list = (token: string) => ctx.request({ method: 'GET', url: '/api/v1/user/sessions', token });
const me = (token: string) => ctx.request({ method: 'GET', url: '/api/v1/auth/me', token });
const login = (user: TestUser, userAgent: string, forwardedFor?: string, password = user.password) =>
  ctx.request({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: user.email, password },
    headers: { 'user-agent': userAgent, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
  });
const refresh = (refreshToken: string, forwardedFor: string) =>
  ctx.request({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    payload: { refresh_token: refreshToken },
    headers: { 'x-forwarded-for': forwardedFor },
  });

describe('the sessions a person holds', () => {
  it('lists the live sessions with device, client address and last use, marking the current one', async () => {
    const user = await ctx.newUser();
    const phone = (await login(user, 'Phone/1.0', '203.0.113.7')).json();
    const laptop = (await login(user, 'Laptop/2.0')).json();
    const ended = (await login(user, 'Gone/1.0')).json();
    await ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token: ended.access_token });

    const res = await list(laptop.access_token);
    expect(res.statusCode).toBe(200);
    const items: Session[] = res.json().items;
    expect(items).toHaveLength(3);
    expect(items.filter((s) => s.current).map((s) => s.userAgent)).toEqual(['Laptop/2.0']);
    const phoneRow = items.find((s) => s.userAgent === 'Phone/1.0')!;
    expect(phoneRow).toMatchObject({ ip: '203.0.113.7', current: false });
    expect(Object.keys(phoneRow).sort()).toEqual([
      'createdAt',
      'current',
      'id',
      'ip',
      'lastUsedAt',
      'userAgent',
    ]);
    expect(items.some((s) => s.userAgent === 'Gone/1.0')).toBe(false);

    // A refresh stamps its use and the address it came from.
    const rotated = await refresh(phone.refresh_token, '198.51.100.44');
    expect(rotated.statusCode).toBe(200);
    const after: Session[] = (await list(laptop.access_token)).json().items;
    const refreshed = after.find((s) => s.id === phoneRow.id)!;
    expect(refreshed.ip).toBe('198.51.100.44');
    expect(Date.parse(refreshed.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(phoneRow.lastUsedAt));
    expect(after[0]!.id).toBe(phoneRow.id);
  });

  it('ends one session at once, on every process, and answers 404 for another user’s', async () => {
    const user = await ctx.newUser();
    const stranger = await ctx.newUser();
    const phone = (await login(user, 'Phone/1.0')).json();
    const items: Session[] = (await list(user.token)).json().items;
    const phoneId = items.find((s) => s.userAgent === 'Phone/1.0')!.id;
    expect(
      (await requestB({ method: 'GET', url: '/api/v1/auth/me', token: phone.access_token })).statusCode,
    ).toBe(200);

    const theirs = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/user/sessions/${phoneId}`,
      token: stranger.token,
    });
    expect(theirs.statusCode).toBe(404);
    expect((await me(phone.access_token)).statusCode).toBe(200);

    const res = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/user/sessions/${phoneId}`,
      token: user.token,
    });
    expect(res.statusCode).toBe(204);
    expect(
      (await requestB({ method: 'GET', url: '/api/v1/auth/me', token: phone.access_token })).statusCode,
    ).toBe(401);
    const refreshed = await requestB({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refresh_token: phone.refresh_token },
    });
    expect(refreshed.statusCode).toBe(401);
    expect((await me(user.token)).statusCode).toBe(200);
    const again = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/user/sessions/${phoneId}`,
      token: user.token,
    });
    expect(again.statusCode).toBe(404);
    const unknown = await ctx.request({
      method: 'DELETE',
      url: '/api/v1/user/sessions/00000000-0000-4000-8000-000000000000',
      token: user.token,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await ctx.request({
      method: 'DELETE',
      url: '/api/v1/user/sessions/nope',
      token: user.token,
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('signs out everywhere else, leaving the caller and other users alone', async () => {
    const user = await ctx.newUser();
    const stranger = await ctx.newUser();
    const others = [(await login(user, 'A/1')).json(), (await login(user, 'B/1')).json()];
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/user/sessions/end-others',
      token: user.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    for (const other of others) expect((await me(other.access_token)).statusCode).toBe(401);
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await me(stranger.token)).statusCode).toBe(200);
    expect((await list(user.token)).json().items).toHaveLength(1);
  });
});

describe('changing the password while signed in', () => {
  const changePassword = (token: string, currentPassword: string, newPassword: string) =>
    ctx.request({
      method: 'POST',
      url: '/api/v1/user/password',
      token,
      payload: { currentPassword, newPassword },
    });

  it('needs the current password, ends the other sessions and mails a notice', async () => {
    const user = await ctx.newUser();
    const other = (await login(user, 'Other/1')).json();
    const wrong = await changePassword(user.token, 'not it at all', 'a new long passphrase');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details).toEqual([
      { path: '/body/currentPassword', message: 'is not the current password' },
    ]);
    const weak = await changePassword(user.token, user.password, '12345678');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().details[0].path).toBe('/body/newPassword');
    expect((await me(other.access_token)).statusCode).toBe(200);

    const res = await changePassword(user.token, user.password, 'a new long passphrase');
    expect(res.statusCode).toBe(204);
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await me(other.access_token)).statusCode).toBe(401);
    const refreshed = await requestB({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refresh_token: other.refresh_token },
    });
    expect(refreshed.statusCode).toBe(401);
    expect((await login(user, 'X/1')).statusCode).toBe(401);
    expect((await login(user, 'X/1', undefined, 'a new long passphrase')).statusCode).toBe(200);
    await ctx.app.services.jobs.runDue();
    expect(mailbox.last(user.email, /password was changed/i).text).toMatch(/every other device/i);
  });

  it('counts wrong current passwords per user and answers 429 past the budget', async () => {
    const user = await ctx.newUser();
    let status = 0;
    for (let i = 0; i < 11; i++)
      status = (await changePassword(user.token, 'wrong guess here', 'whatever else 1')).statusCode;
    expect(status).toBe(429);
    const right = await changePassword(user.token, user.password, 'a new long passphrase');
    expect(right.statusCode).toBe(429);
  });
});

const anySession = async () => (await list((await ctx.newUser()).token)).json().items[0].id as string;

describeSecurityMatrix(ctx, [
  {
    method: 'GET',
    path: '/api/v1/user/sessions',
    build: () => ({ url: '/api/v1/user/sessions' }),
    teamScoped: false,
  },
  {
    method: 'DELETE',
    path: '/api/v1/user/sessions/{id}',
    build: async () => ({ url: `/api/v1/user/sessions/${await anySession()}` }),
    teamScoped: false,
  },
  {
    method: 'POST',
    path: '/api/v1/user/sessions/end-others',
    build: () => ({ url: '/api/v1/user/sessions/end-others' }),
    teamScoped: false,
  },
  {
    method: 'POST',
    path: '/api/v1/user/password',
    build: () => ({
      url: '/api/v1/user/password',
      payload: { currentPassword: 'whatever', newPassword: 'something long' },
    }),
    teamScoped: false,
  },
]);
