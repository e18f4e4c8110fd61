import { describe, expect, it } from 'vitest';
import { TestClock, useTestContext } from '../../../test/helpers/context.ts';

const clock = new TestClock();
const ctx = useTestContext({ clock, env: { ACCESS_TOKEN_TTL_SECONDS: '600', REFRESH_TOKEN_TTL_DAYS: '7' } });

const UNAUTHORIZED = '{"error":"Unauthorized"}';
const refresh = (refreshToken: string) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refresh_token: refreshToken } });
const me = (token: string) => ctx.request({ method: 'GET', url: '/api/v1/auth/me', token });
const logout = (token: string) => ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token });

function expectUnauthorized(res: Awaited<ReturnType<typeof me>>, what: string) {
  expect(res.statusCode, what).toBe(401);
  expect(res.body, what).toBe(UNAUTHORIZED);
}

describe('refresh-token rotation', () => {
  it('answers the token shape with a NEW refresh token and a working access token', async () => {
    const user = await ctx.newUser({ name: 'Rita' });
    const res = await refresh(user.refreshToken);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'token_type',
      'user',
    ]);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    expect(body.user).toEqual({ id: user.id, email: user.email, name: 'Rita', emailVerified: false });
    expect(body.refresh_token).not.toBe(user.refreshToken);
    expect(body.access_token).not.toBe(user.token);
    expect((await me(body.access_token)).statusCode).toBe(200);
    // Refreshing keeps the session: the first access token still works too.
    expect((await me(user.token)).statusCode).toBe(200);
  });

  it('chains: each new refresh token works exactly once', async () => {
    const user = await ctx.newUser();
    let current = user.refreshToken;
    for (let i = 0; i < 4; i++) {
      const res = await refresh(current);
      expect(res.statusCode, `rotation ${i + 1}`).toBe(200);
      current = res.json().refresh_token;
    }
    expect((await me((await refresh(current)).json().access_token)).statusCode).toBe(200);
  });

  it('treats a spent refresh token as theft: 401, and the whole family is revoked', async () => {
    const user = await ctx.newUser();
    const rotated = (await refresh(user.refreshToken)).json();
    const rotatedAgain = (await refresh(rotated.refresh_token)).json();

    expectUnauthorized(await refresh(user.refreshToken), 'the spent token');
    expectUnauthorized(await refresh(rotatedAgain.refresh_token), 'the newest refresh token');
    expectUnauthorized(await me(rotatedAgain.access_token), 'the newest access token');
    expectUnauthorized(await me(user.token), 'the first access token');
    expectUnauthorized(await refresh(rotated.refresh_token), 'a middle token');
  });

  it('revokes only the family of the re-used token, not the user’s other sessions', async () => {
    const user = await ctx.newUser();
    const other = (
      await ctx.request({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: user.password },
      })
    ).json();
    await refresh(user.refreshToken);
    expectUnauthorized(await refresh(user.refreshToken), 're-use');
    expect((await me(other.access_token)).statusCode).toBe(200);
    expect((await refresh(other.refresh_token)).statusCode).toBe(200);
  });

  it('lets at most one of two simultaneous uses of the same refresh token through', async () => {
    const user = await ctx.newUser();
    const results = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)]);
    const ok = results.filter((res) => res.statusCode === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const res of results.filter((r) => r.statusCode !== 200)) expectUnauthorized(res, 'the loser');
  });

  it('answers unknown, malformed and wrong-kind tokens with exactly 401', async () => {
    const user = await ctx.newUser();
    expectUnauthorized(await refresh('x'.repeat(43)), 'unknown refresh token');
    expectUnauthorized(await refresh(user.token), 'an access token as refresh token');
    expectUnauthorized(await me(user.refreshToken), 'a refresh token as access token');
    expectUnauthorized(await logout(user.refreshToken), 'a refresh token on logout');
    const invalid = await ctx.request({ method: 'POST', url: '/api/v1/auth/refresh', payload: {} });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('validation_failed');
  });

  it('expires the access token after its lifetime while the refresh token still renews it', async () => {
    const user = await ctx.newUser();
    clock.advance(601_000);
    expectUnauthorized(await me(user.token), 'expired access token');
    const renewed = await refresh(user.refreshToken);
    expect(renewed.statusCode).toBe(200);
    expect((await me(renewed.json().access_token)).statusCode).toBe(200);
  });

  it('ends the refresh token with the session lifetime (REFRESH_TOKEN_TTL_DAYS)', async () => {
    const user = await ctx.newUser();
    clock.advance(7 * 86_400_000 + 1000);
    expectUnauthorized(await refresh(user.refreshToken), 'expired session');
  });
});

describe('logout', () => {
  it('answers 204 and stops the access and refresh tokens on the very next request', async () => {
    const user = await ctx.newUser();
    expect((await me(user.token)).statusCode).toBe(200);
    const res = await logout(user.token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectUnauthorized(await me(user.token), 'access token after logout');
    expectUnauthorized(await refresh(user.refreshToken), 'refresh token after logout');
    expectUnauthorized(await logout(user.token), 'a second logout');
  });

  it('ends a refreshed session too: the tokens of every rotation stop', async () => {
    const user = await ctx.newUser();
    const rotated = (await refresh(user.refreshToken)).json();
    expect((await logout(rotated.access_token)).statusCode).toBe(204);
    expectUnauthorized(await me(user.token), 'the first access token');
    expectUnauthorized(await me(rotated.access_token), 'the rotated access token');
    expectUnauthorized(await refresh(rotated.refresh_token), 'the rotated refresh token');
  });

  it('leaves the user’s other sessions signed in', async () => {
    const user = await ctx.newUser();
    const other = (
      await ctx.request({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: user.password },
      })
    ).json();
    expect((await logout(user.token)).statusCode).toBe(204);
    expect((await me(other.access_token)).statusCode).toBe(200);
  });

  it('refuses an API key (session only) with 403 session_required and without a token with 401', async () => {
    const team = await ctx.newTeam();
    const key = await ctx.newApiKey(team);
    const res = await logout(key);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('session_required');
    expectUnauthorized(await ctx.request({ method: 'POST', url: '/api/v1/auth/logout' }), 'no token');
    expect((await me(team.owner.token)).statusCode).toBe(200);
  });
});
