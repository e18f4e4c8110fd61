import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { useSecondApp } from './fixtures/second-app.ts';

// Process A is the test context's app; process B is a second instance over the same database.
const ctx = useTestContext();
const requestB = useSecondApp(ctx);

const UNAUTHORIZED = '{"error":"Unauthorized"}';

describe('revocation across processes', () => {
  it('stops a session logged out through A on B at the very next request', async () => {
    const login = await ctx.newUser();
    const onB = () => requestB({ method: 'GET', url: '/api/v1/auth/me', token: login.token });
    expect((await onB()).statusCode).toBe(200);
    expect((await onB()).statusCode).toBe(200); // now cached on B

    const out = await ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token: login.token });
    expect(out.statusCode).toBe(204);
    const after = await onB();
    expect(after.statusCode).toBe(401);
    expect(after.body).toBe(UNAUTHORIZED);
    const refreshOnB = await requestB({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refresh_token: login.refreshToken },
    });
    expect(refreshOnB.statusCode).toBe(401);
  });

  it('detects refresh-token re-use across processes: rotated on A, replayed on B', async () => {
    const user = await ctx.newUser();
    const rotated = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refresh_token: user.refreshToken },
    });
    expect(rotated.statusCode).toBe(200);
    const replay = await requestB({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refresh_token: user.refreshToken },
    });
    expect(replay.statusCode).toBe(401);
    const newest = await ctx.request({
      method: 'GET',
      url: '/api/v1/auth/me',
      token: rotated.json().access_token,
    });
    expect(newest.statusCode).toBe(401);
  });

  it('stops an API key revoked through A on B at the very next request', async () => {
    const team = await ctx.newTeam();
    const created = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/api-keys`,
      token: team.owner.token,
      payload: { name: 'shared', scopes: [] },
    });
    const { id, key } = created.json();
    const onB = () => requestB({ method: 'GET', url: '/api/v1/no-such-route', token: key });
    expect((await onB()).statusCode).toBe(404);
    expect((await onB()).statusCode).toBe(404);

    const revoked = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/api-keys/${id}`,
      token: team.owner.token,
    });
    expect(revoked.statusCode).toBe(204);
    const after = await onB();
    expect(after.statusCode).toBe(401);
    expect(after.body).toBe(UNAUTHORIZED);
  });
});
