import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { teamMembers, users } from '../../db/schema/index.ts';

const ctx = useTestContext();

describe('user profile', () => {
  it('shows the signed-in user and lets them set and clear their name', async () => {
    const user = await ctx.newUser({ name: 'Ada' });
    const res = await ctx.request({ method: 'GET', url: '/api/v1/user/profile', token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: user.id,
      email: user.email,
      name: 'Ada',
      defaultTeamId: null,
      zeroDataRetention: false,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.any(String),
    });

    const renamed = await ctx.request({
      method: 'PATCH',
      url: '/api/v1/user/profile',
      token: user.token,
      payload: { name: 'Ada Lovelace' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Ada Lovelace');
    const cleared = await ctx.request({
      method: 'PATCH',
      url: '/api/v1/user/profile',
      token: user.token,
      payload: { name: null },
    });
    expect(cleared.json().name).toBeNull();
  });

  it('refuses blank names, unknown fields and a missing name (400)', async () => {
    const user = await ctx.newUser();
    for (const payload of [{ name: '   ' }, { name: '' }, { name: 'x', email: 'a@b.test' }, {}]) {
      const res = await ctx.request({
        method: 'PATCH',
        url: '/api/v1/user/profile',
        token: user.token,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });
});

describe('sign-in identities', () => {
  it('lists the password sign-in of a password user', async () => {
    const user = await ctx.newUser();
    const res = await ctx.request({ method: 'GET', url: '/api/v1/user/identities', token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [{ provider: 'password', email: user.email, createdAt: expect.any(String) }],
      nextCursor: null,
    });
  });

  it('adds the OpenID Connect identity with issuer and subject when one is linked', async () => {
    const user = await ctx.newUser();
    await ctx.database.db
      .update(users)
      .set({ externalSubject: 'https://id.example.test|sub-123' })
      .where(eq(users.id, user.id));
    const res = await ctx.request({ method: 'GET', url: '/api/v1/user/identities', token: user.token });
    expect(res.json().items).toEqual([
      expect.objectContaining({ provider: 'password' }),
      {
        provider: 'oidc',
        issuer: 'https://id.example.test',
        subject: 'sub-123',
        email: user.email,
        createdAt: expect.any(String),
      },
    ]);
  });
});

describe('default team', () => {
  it('sets a team of mine, and stops showing it once I leave that team', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const res = await ctx.request({
      method: 'PATCH',
      url: '/api/v1/user/default-team',
      token: member.token,
      payload: { teamId: team.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: member.id, defaultTeamId: team.id });

    await ctx.database.db
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, member.id)));
    const after = await ctx.request({ method: 'GET', url: '/api/v1/user/profile', token: member.token });
    expect(after.json().defaultTeamId).toBeNull();
  });

  it('clears the default team with null', async () => {
    const team = await ctx.newTeam();
    const set = { method: 'PATCH', url: '/api/v1/user/default-team', token: team.owner.token } as const;
    await ctx.request({ ...set, payload: { teamId: team.id } });
    const res = await ctx.request({ ...set, payload: { teamId: null } });
    expect(res.statusCode).toBe(200);
    expect(res.json().defaultTeamId).toBeNull();
  });

  it('answers 404 for a team I am not in, or that does not exist, and changes nothing', async () => {
    const mine = await ctx.newTeam();
    const other = await ctx.newTeam();
    const set = { method: 'PATCH', url: '/api/v1/user/default-team', token: mine.owner.token } as const;
    await ctx.request({ ...set, payload: { teamId: mine.id } });
    for (const teamId of [other.id, 2_000_000_000]) {
      const res = await ctx.request({ ...set, payload: { teamId } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', error: 'Team not found' });
    }
    const profile = await ctx.request({
      method: 'GET',
      url: '/api/v1/user/profile',
      token: mine.owner.token,
    });
    expect(profile.json().defaultTeamId).toBe(mine.id);
  });

  it('refuses ids that are not positive integers (400)', async () => {
    const user = await ctx.newUser();
    for (const teamId of ['1', 0, -3, 1.5]) {
      const res = await ctx.request({
        method: 'PATCH',
        url: '/api/v1/user/default-team',
        token: user.token,
        payload: { teamId },
      });
      expect(res.statusCode, String(teamId)).toBe(400);
      expect(res.json().details[0].path).toBe('/body/teamId');
    }
  });
});

describe('zero data retention', () => {
  it('turns the flag on and off and shows it in the profile', async () => {
    const user = await ctx.newUser();
    const set = (enabled: unknown) =>
      ctx.request({
        method: 'PATCH',
        url: '/api/v1/user/zero-data-retention',
        token: user.token,
        payload: { enabled },
      });
    const on = await set(true);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ enabled: true });
    const profile = await ctx.request({ method: 'GET', url: '/api/v1/user/profile', token: user.token });
    expect(profile.json().zeroDataRetention).toBe(true);
    expect((await set(false)).json()).toEqual({ enabled: false });
    const bad = await set('yes');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('/body/enabled');
  });
});

describe('app opened', () => {
  const opened = (token: string, extra: { payload?: string; headers?: Record<string, string> } = {}) =>
    ctx.request({ method: 'POST', url: '/api/v1/user/app-opened', token, ...extra });

  it('stamps the time without a body or content type', async () => {
    const user = await ctx.newUser();
    const before = Date.now();
    const res = await opened(user.token);
    expect(res.statusCode).toBe(200);
    const stamped = new Date(res.json().lastAppOpenedAt).getTime();
    expect(stamped).toBeGreaterThanOrEqual(before - 1000);
    const [row] = await ctx.database.db
      .select({ at: users.lastAppOpenedAt })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row?.at?.getTime()).toBe(stamped);
  });

  it('also takes an empty JSON body or {}, but no fields', async () => {
    const user = await ctx.newUser();
    const json = { 'content-type': 'application/json' };
    expect((await opened(user.token, { payload: '', headers: json })).statusCode).toBe(200);
    expect((await opened(user.token, { payload: '{}', headers: json })).statusCode).toBe(200);
    const junk = await opened(user.token, { payload: '{"junk":1}', headers: json });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().details).toEqual([{ path: '/body/junk', message: 'is not an accepted field' }]);
    const broken = await opened(user.token, { payload: '{"a":', headers: json });
    expect(broken.json().code).toBe('invalid_json');
    const text = await opened(user.token, { payload: 'hi', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
  });
});

describe('OpenAPI', () => {
  it('documents every user route, with the profile update marked as an extension', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(paths['/api/v1/user/profile']?.patch?.['x-extension']).toBe(true);
    expect(paths['/api/v1/user/profile']?.get?.['x-extension']).toBeUndefined();
    expect(Object.keys(paths['/api/v1/user/push-tokens']?.post?.responses as object)).toEqual(
      expect.arrayContaining(['200', '201']),
    );
    expect(paths['/api/v1/user/account']?.delete?.responses).toHaveProperty('202');
  });
});
