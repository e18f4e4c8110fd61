import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';

describe('401 answers', () => {
  const ctx = useTestContext();

  it('keep the body and say Bearer, with invalid_token when a token was sent', async () => {
    const none = await ctx.request({ method: 'GET', url: '/api/v1/tracks' });
    expect(none.statusCode).toBe(401);
    expect(none.body).toBe('{"error":"Unauthorized"}');
    expect(none.headers['www-authenticate']).toBe('Bearer');

    const bad = await ctx.request({ method: 'GET', url: '/api/v1/tracks', token: 'not-a-real-token' });
    expect(bad.statusCode).toBe(401);
    expect(bad.body).toBe('{"error":"Unauthorized"}');
    expect(bad.headers['www-authenticate']).toBe('Bearer error="invalid_token"');

    // Unknown routes and a logged-out session answer the same.
    const user = await ctx.newUser();
    const unknown = await ctx.request({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(unknown.headers['www-authenticate']).toBe('Bearer');
    await ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token: user.token });
    const ended = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: user.token });
    expect(ended.statusCode).toBe(401);
    expect(ended.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('are not sent on answers other than 401', async () => {
    const user = await ctx.newUser();
    const ok = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: user.token });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['www-authenticate']).toBeUndefined();
  });
});

describe('a method the path does not have', () => {
  const ctx = useTestContext();

  it('answers 405 with Allow to a caller with a valid token', async () => {
    const user = await ctx.newUser();
    const res = await ctx.request({ method: 'DELETE', url: '/api/v1/auth/me', token: user.token });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ error: 'This path does not answer DELETE', code: 'method_not_allowed' });
    expect(res.headers.allow).toBe('GET, HEAD');

    const team = await ctx.newTeam(user);
    const put = await ctx.request({ method: 'PUT', url: `/api/v1/teams/${team.id}/`, token: user.token });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow?.split(', ')).toEqual(expect.arrayContaining(['GET', 'PATCH']));
    expect(put.headers.allow).not.toContain('PUT');
  });

  it('answers 401 without a token, and 404 on a path nothing has', async () => {
    const anonymous = await ctx.request({ method: 'DELETE', url: '/api/v1/auth/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers.allow).toBeUndefined();
    const user = await ctx.newUser();
    const missing = await ctx.request({ method: 'GET', url: '/api/v1/no/such/path', token: user.token });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.allow).toBeUndefined();
  });
});
