import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix } from '../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

describe('team API keys', () => {
  it('creates a key shown once, lists it without the secret, and revokes it for the next request', async () => {
    const team = await ctx.newTeam();
    const created = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/api-keys`,
      token: team.owner.token,
      payload: { name: 'CI', scopes: ['tracks:write', 'tracks:write'] },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key.key).toMatch(/^tmw_live_[A-Za-z0-9_-]{32}$/);
    expect(key.scopes).toEqual(['tracks:write']);
    expect(key.key.startsWith(key.prefix)).toBe(true);

    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/api-keys`,
      token: team.owner.token,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toHaveLength(1);
    expect(list.body).not.toContain(key.key);

    const used = await ctx.request({ method: 'GET', url: '/api/v1/no-such-route', token: key.key });
    expect(used.statusCode).toBe(404);
    expect(used.headers['ratelimit-limit']).toBeDefined();

    const revoked = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/api-keys/${key.id}`,
      token: team.owner.token,
    });
    expect(revoked.statusCode).toBe(204);
    const after = await ctx.request({ method: 'GET', url: '/api/v1/no-such-route', token: key.key });
    expect(after.statusCode).toBe(401);
    expect(after.body).toBe('{"error":"Unauthorized"}');
  });

  it('refuses keys for members who are not owner or admin (403) and unknown scopes (400)', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const forbidden = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/api-keys`,
      token: member.token,
      payload: { name: 'x', scopes: [] },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('forbidden');
    const admin = await ctx.addMember(team, 'admin');
    const badScope = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/api-keys`,
      token: admin.token,
      payload: { name: 'x', scopes: ['everything'] },
    });
    expect(badScope.statusCode).toBe(400);
    const past = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/api-keys`,
      token: admin.token,
      payload: { name: 'x', scopes: [], expiresAt: '2001-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(400);
  });

  it('stops an expired key', async () => {
    const team = await ctx.newTeam();
    const soon = new Date(Date.now() + 1500).toISOString();
    const res = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/api-keys`,
      token: team.owner.token,
      payload: { name: 'short', scopes: [], expiresAt: soon },
    });
    const { key } = res.json();
    expect((await ctx.request({ method: 'GET', url: '/api/v1/x', token: key })).statusCode).toBe(404);
    await new Promise((r) => setTimeout(r, 1600));
    expect((await ctx.request({ method: 'GET', url: '/api/v1/x', token: key })).statusCode).toBe(401);
  });

  it('does not revoke another team’s key through this team (404)', async () => {
    const a = await ctx.newTeam();
    const b = await ctx.newTeam();
    await ctx.newApiKey(b);
    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${b.id}/api-keys`,
      token: b.owner.token,
    });
    const keyId = list.json().items[0].id;
    const res = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${a.id}/api-keys/${keyId}`,
      token: a.owner.token,
    });
    expect(res.statusCode).toBe(404);
  });
});

describeSecurityMatrix(ctx, [
  {
    method: 'GET',
    path: '/api/v1/teams/{id}/api-keys',
    build: (team) => ({ url: `/api/v1/teams/${team.id}/api-keys` }),
  },
  {
    method: 'POST',
    path: '/api/v1/teams/{id}/api-keys',
    build: (team) => ({ url: `/api/v1/teams/${team.id}/api-keys`, payload: { name: 'k', scopes: [] } }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/teams/{id}/api-keys/{keyId}',
    build: async (team) => {
      await ctx.newApiKey(team);
      const list = await ctx.request({
        method: 'GET',
        url: `/api/v1/teams/${team.id}/api-keys`,
        token: team.owner.token,
      });
      return { url: `/api/v1/teams/${team.id}/api-keys/${list.json().items[0].id}` };
    },
  },
]);
