import { describe, expect, it } from 'vitest';
import { workHelpers } from '../src/modules/notifications/notifications.test-support.ts';
import { sessionHelpers } from '../src/modules/sessions/sessions.test-support.ts';
import { TestClock, type TestUser, useTestContext } from './helpers/context.ts';
import { linkIn, useMailbox } from './helpers/mailbox.ts';

// One person's way through accounts and mail, over HTTP, with every link read from a real SMTP server.
const clock = new TestClock(Date.parse('2031-06-02T09:00:00.000Z'));
const mailbox = useMailbox();
const ctx = useTestContext({
  clock,
  env: () => ({ SMTP_URL: mailbox.url, APP_URL: 'https://app.example.test' }),
});
const { call } = workHelpers(ctx);
const { newSession } = sessionHelpers(ctx);

const post = (url: string, payload: object, token?: string) =>
  ctx.request({ method: 'POST', url, payload, ...(token ? { token } : {}) });
const deliver = () => ctx.app.services.jobs.runDue();

async function signUp(email: string, password: string): Promise<TestUser & { refreshToken: string }> {
  const res = await post('/api/v1/auth/signup', { email, password, name: 'Nina' });
  expect(res.statusCode).toBe(201);
  const body = res.json();
  expect(body.user.emailVerified).toBe(false);
  return { id: body.user.id, email, password, token: body.access_token, refreshToken: body.refresh_token };
}

describe('an account from sign-up to password reset, by mail', () => {
  it('verifies, joins a team and a session from their mails, resets the password and ends the old sessions', async () => {
    const email = `nina-${ctx.unique()}@example.test`;
    const nina = await signUp(email, 'first-Password-2031');
    await deliver();
    const verification = linkIn(mailbox.last(email, /verify your e-mail/i), '/verify-email');
    expect(verification.url.origin).toBe('https://app.example.test');
    expect((await post('/api/v1/auth/verify-email', { token: verification.token! })).statusCode).toBeLessThan(
      300,
    );
    const me = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: nina.token });
    expect(me.json().emailVerified).toBe(true);

    // A team invite, accepted with the token its mail carries.
    const team = await ctx.newTeam();
    await call('POST', `/api/v1/teams/${team.id}/invites`, team.owner, { email, role: 'member' }, 201);
    await deliver();
    const invite = linkIn(mailbox.last(email, /invited you/), '/invites/accept');
    expect((await post(`/api/v1/invites/${invite.token}/accept`, {}, nina.token)).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/teams/${team.id}/members`, nina)).status).toBe(200);

    // A studio session of another team, by e-mail, accepted with its mailed token.
    const band = await ctx.newTeam();
    const session = await newSession(band, { title: 'Strings', startsAt: '2031-06-03T10:00:00.000Z' });
    await call('POST', `/api/v1/sessions/${session.id}/participants`, band.owner, { email }, 201);
    await deliver();
    const sessionInvite = linkIn(mailbox.last(email, /studio session/), '/session-invitations/accept');
    const joined = await post(`/api/v1/session-invitations/${sessionInvite.token}/accept`, {}, nina.token);
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ userId: nina.id, status: 'accepted' });
    expect((await call('GET', `/api/v1/sessions/${session.id}?teamId=${band.id}`, nina)).status).toBe(200);

    // A second device signs in; then the password is reset from the mail.
    const login = await post('/api/v1/auth/login', { email, password: nina.password });
    expect(login.statusCode).toBe(200);
    const other = login.json() as { access_token: string; refresh_token: string };
    expect((await post('/api/v1/auth/password-reset', { email })).statusCode).toBe(202);
    await deliver();
    const reset = linkIn(mailbox.last(email, /reset your password/i), '/reset-password');
    const confirmed = await post('/api/v1/auth/password-reset/confirm', {
      token: reset.token!,
      password: 'second-Password-2031',
    });
    expect(confirmed.statusCode).toBe(204);

    for (const token of [nina.token, other.access_token]) {
      const refused = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token });
      expect(refused.statusCode).toBe(401);
    }
    for (const refresh_token of [nina.refreshToken, other.refresh_token])
      expect((await post('/api/v1/auth/refresh', { refresh_token })).statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email, password: nina.password })).statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email, password: 'second-Password-2031' })).statusCode).toBe(
      200,
    );
    // The reset link worked once.
    const again = await post('/api/v1/auth/password-reset/confirm', {
      token: reset.token!,
      password: 'third-Password-2031',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_token');
  });

  it('gives a sign-up with an invited address nothing of an admin invite until it holds the token or verifies', async () => {
    const team = await ctx.newTeam();
    const email = `target-${ctx.unique()}@example.test`;
    const created = await call(
      'POST',
      `/api/v1/teams/${team.id}/invites`,
      team.owner,
      { email, role: 'admin' },
      201,
    );
    const squatter = await signUp(email, 'squatter-Password-2031');

    const inbox = await call('GET', '/api/v1/inbox/', squatter, undefined, 200);
    expect(inbox.body.items).toEqual([]);
    const byId = await call('POST', `/api/v1/user/invites/${created.body.id}/accept`, squatter);
    expect(byId.status).toBe(403);
    expect(byId.body.code).toBe('email_unverified');
    expect((await call('GET', `/api/v1/teams/${team.id}/members`, squatter)).status).toBe(404);
    const listed = await call('GET', `/api/v1/teams/${team.id}/invites`, team.owner, undefined, 200);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);
  });
});
