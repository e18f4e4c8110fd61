import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';

const ctx = useTestContext();

describe('teams', () => {
  it('creates a team on the default plan with the default statuses; the creator is its owner', async () => {
    const user = await ctx.newUser();
    const created = await ctx.request({
      method: 'POST',
      url: '/api/v1/teams/',
      token: user.token,
      payload: { name: '  The Band  ' },
    });
    expect(created.statusCode).toBe(201);
    const team = created.json();
    expect(team).toEqual({
      id: expect.any(Number),
      name: 'The Band',
      slug: expect.stringMatching(/^the-band(-\d+)?$/),
      planId: 'free',
      role: 'owner',
      hidden: false,
      memberCount: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });

    const got = await ctx.request({ method: 'GET', url: `/api/v1/teams/${team.id}`, token: user.token });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(team);

    const config = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: user.token,
    });
    expect(config.json().tracks[0].id).toBe('idea');
    expect(config.json().albums[0].id).toBe('idea');

    const noSlash = await ctx.request({
      method: 'POST',
      url: '/api/v1/teams',
      token: user.token,
      payload: { name: 'Second' },
    });
    expect(noSlash.statusCode).toBe(201);
  });

  it('refuses a team without a valid name (400)', async () => {
    const user = await ctx.newUser();
    for (const payload of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'a', plan: 'pro' },
    ]) {
      const res = await ctx.request({ method: 'POST', url: '/api/v1/teams/', token: user.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('lists only my teams with my role and switcher flag, in pages', async () => {
    const me = await ctx.newUser();
    const own1 = await ctx.newTeam(me);
    const own2 = await ctx.newTeam(me);
    const other = await ctx.newTeam();
    await ctx.addMember(other, 'member', me);
    await ctx.newTeam();

    const hide = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${own2.id}/switcher-visibility`,
      token: me.token,
      payload: { hidden: true },
    });
    expect(hide.statusCode).toBe(200);
    expect(hide.json()).toEqual({ teamId: own2.id, hidden: true });

    const first = await ctx.request({ method: 'GET', url: '/api/v1/teams/?limit=2', token: me.token });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.items.map((t: { id: number }) => t.id)).toEqual([own1.id, own2.id]);
    expect(page1.items[1]).toMatchObject({ role: 'owner', hidden: true });
    expect(page1.nextCursor).toEqual(expect.any(String));

    const second = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams?limit=2&cursor=${page1.nextCursor}`,
      token: me.token,
    });
    expect(second.json()).toEqual({
      items: [expect.objectContaining({ id: other.id, role: 'member', hidden: false, memberCount: 2 })],
      nextCursor: null,
    });

    for (const url of ['/api/v1/teams/?limit=0', '/api/v1/teams/?limit=201', '/api/v1/teams/?cursor=zzz']) {
      expect((await ctx.request({ method: 'GET', url, token: me.token })).statusCode, url).toBe(400);
    }
  });

  it('looks up my teams by a case-insensitive substring of the name', async () => {
    const me = await ctx.newUser();
    const alpha = await ctx.newTeam(me, 'Alpha Beats');
    const beta = await ctx.newTeam(me, 'beta 100% band');
    await ctx.newTeam(undefined, 'Alpha Beats Elsewhere');
    const ids = async (query: string) => {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/teams/lookup${query}`, token: me.token });
      expect(res.statusCode, query).toBe(200);
      return res.json().items.map((t: { id: number }) => t.id);
    };
    expect(await ids('?q=BEAT')).toEqual([alpha.id]);
    expect(await ids('?q=%25')).toEqual([beta.id]);
    expect(await ids('?q=_')).toEqual([]);
    expect(await ids('')).toEqual([alpha.id, beta.id]);
    const tooLong = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/lookup?q=${'a'.repeat(101)}`,
      token: me.token,
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('hides a team from outsiders (404) and refuses a non-numeric id (400)', async () => {
    const team = await ctx.newTeam();
    const outsider = await ctx.newUser();
    const res = await ctx.request({ method: 'GET', url: `/api/v1/teams/${team.id}`, token: outsider.token });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
    const missing = await ctx.request({
      method: 'GET',
      url: '/api/v1/teams/2147483647',
      token: outsider.token,
    });
    expect(missing.statusCode).toBe(404);
    const bad = await ctx.request({ method: 'GET', url: '/api/v1/teams/abc', token: outsider.token });
    expect(bad.statusCode).toBe(400);
  });

  it('shows the plan and an overview of counts to every member', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    await ctx.newApiKey(team);
    const invite = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/invites`,
      token: team.owner.token,
      payload: { email: `someone-${ctx.unique()}@example.test` },
    });
    expect(invite.statusCode).toBe(201);

    const plan = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/plan`,
      token: member.token,
    });
    expect(plan.statusCode).toBe(200);
    expect(plan.json()).toEqual({
      id: 'free',
      name: 'Free',
      apiRequestsPerMinute: 120,
      storageQuotaBytes: 5368709120,
      maxMembers: 5,
    });

    const overview = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/overview`,
      token: member.token,
    });
    expect(overview.statusCode).toBe(200);
    expect(overview.json()).toEqual({
      teamId: team.id,
      counts: expect.objectContaining({ members: 2, pendingInvites: 1, apiKeys: 1 }),
      plan: plan.json(),
    });
  });

  it('keeps the switcher flag per member and validates it', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team);
    const url = `/api/v1/teams/${team.id}/switcher-visibility`;
    expect(
      (await ctx.request({ method: 'PATCH', url, token: member.token, payload: { hidden: true } }))
        .statusCode,
    ).toBe(200);
    const mine = await ctx.request({ method: 'GET', url: `/api/v1/teams/${team.id}`, token: member.token });
    expect(mine.json().hidden).toBe(true);
    const owners = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}`,
      token: team.owner.token,
    });
    expect(owners.json().hidden).toBe(false);
    for (const payload of [{}, { hidden: 'yes' }, { hidden: true, other: 1 }]) {
      const res = await ctx.request({ method: 'PATCH', url, token: member.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('lets only the owner delete a team, with everything in it', async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    for (const user of [admin, member]) {
      const res = await ctx.request({ method: 'DELETE', url: `/api/v1/teams/${team.id}`, token: user.token });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    const key = await ctx.newApiKey(team);
    const deleted = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/`,
      token: team.owner.token,
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const gone = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}`,
      token: team.owner.token,
    });
    expect(gone.statusCode).toBe(404);
    const list = await ctx.request({ method: 'GET', url: '/api/v1/teams/', token: member.token });
    expect(list.json().items).toEqual([]);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/x', token: key })).statusCode).toBe(401);
  });
});

describe('team socials', () => {
  it('starts empty, lets managers set and remove links, and shows them to members', async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    const get = () =>
      ctx.request({ method: 'GET', url: `/api/v1/teams/socials?teamId=${team.id}`, token: member.token });
    expect((await get()).json()).toEqual({ teamId: team.id, socials: {} });

    const set = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/socials`,
      token: admin.token,
      payload: { socials: { instagram: 'https://instagram.com/band', website: 'http://band.example' } },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({
      teamId: team.id,
      socials: { instagram: 'https://instagram.com/band', website: 'http://band.example' },
    });

    const removed = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/socials`,
      token: team.owner.token,
      payload: { socials: { instagram: null, tiktok: 'https://tiktok.com/@band' } },
    });
    expect(removed.json().socials).toEqual({
      website: 'http://band.example',
      tiktok: 'https://tiktok.com/@band',
    });
    expect((await get()).json()).toEqual(removed.json());

    const forbidden = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/socials`,
      token: member.token,
      payload: { socials: { x: 'https://x.com/band' } },
    });
    expect(forbidden.statusCode).toBe(403);
  });

  it('accepts only http and https URLs under lower-case network names (400)', async () => {
    const team = await ctx.newTeam();
    const url = `/api/v1/teams/${team.id}/socials`;
    const bad = await ctx.request({
      method: 'PATCH',
      url,
      token: team.owner.token,
      payload: {
        socials: { evil: 'javascript:alert(1)', ftp: 'ftp://files.example', ok: 'https://ok.example' },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([
      { path: '/body/socials/evil', message: 'must be an http or https URL' },
      { path: '/body/socials/ftp', message: 'must be an http or https URL' },
    ]);
    for (const payload of [
      { socials: { 'Insta Gram': 'https://x.example' } },
      { socials: { web: 42 } },
      { socials: { web: '' } },
      {},
    ]) {
      const res = await ctx.request({ method: 'PATCH', url, token: team.owner.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const unchanged = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/socials?teamId=${team.id}`,
      token: team.owner.token,
    });
    expect(unchanged.json().socials).toEqual({});
  });

  it('needs a teamId and hides other teams (400, 404)', async () => {
    const team = await ctx.newTeam();
    const outsider = await ctx.newUser();
    const missing = await ctx.request({ method: 'GET', url: '/api/v1/teams/socials', token: outsider.token });
    expect(missing.statusCode).toBe(400);
    const hidden = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/socials?teamId=${team.id}`,
      token: outsider.token,
    });
    expect(hidden.statusCode).toBe(404);
  });
});
