import { describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';

const ctx = useTestContext();

const setRole = (team: TestTeam, actor: TestUser, target: TestUser, role: string) =>
  ctx.request({
    method: 'PATCH',
    url: `/api/v1/teams/${team.id}/members/${target.id}`,
    token: actor.token,
    payload: { role },
  });

const remove = (team: TestTeam, actor: TestUser, target: TestUser) =>
  ctx.request({ method: 'DELETE', url: `/api/v1/teams/${team.id}/members/${target.id}`, token: actor.token });

const userIds = (body: { items: { userId: string }[] }) => body.items.map((m) => m.userId);

describe('team members', () => {
  it('lists members with their roles in join order, in pages', async () => {
    const owner = await ctx.newUser({ name: 'Olga Owner' });
    const team = await ctx.newTeam(owner);
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    const all = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/members`,
      token: member.token,
    });
    expect(all.statusCode).toBe(200);
    expect(all.json().items[0]).toEqual({
      userId: owner.id,
      name: 'Olga Owner',
      email: owner.email,
      role: 'owner',
      joinedAt: expect.stringMatching(/Z$/),
    });
    expect(all.json().items.map((m: { role: string }) => m.role)).toEqual(['owner', 'admin', 'member']);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await ctx.request({
        method: 'GET',
        url: `/api/v1/teams/${team.id}/members?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        token: member.token,
      });
      expect(res.statusCode).toBe(200);
      seen.push(...userIds(res.json()));
      cursor = res.json().nextCursor;
    } while (cursor);
    expect(seen).toEqual([owner.id, admin.id, member.id]);

    const forged = Buffer.from(JSON.stringify(['x', 'y'])).toString('base64url');
    const bad = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/members?cursor=${forged}`,
      token: member.token,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('lists the people directory alphabetically by name, or e-mail without one', async () => {
    const owner = await ctx.newUser({ name: 'Zoe' });
    const team = await ctx.newTeam(owner);
    const anna = await ctx.addMember(team, 'member', await ctx.newUser({ name: 'anna' }));
    const noName = await ctx.addMember(
      team,
      'admin',
      await ctx.newUser({ email: `mike-${ctx.unique()}@example.test` }),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await ctx.request({
        method: 'GET',
        url: `/api/v1/teams/directory?teamId=${team.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        token: anna.token,
      });
      expect(res.statusCode).toBe(200);
      seen.push(...userIds(res.json()));
      cursor = res.json().nextCursor;
    } while (cursor);
    expect(seen).toEqual([anna.id, noName.id, owner.id]);

    const missing = await ctx.request({ method: 'GET', url: '/api/v1/teams/directory', token: anna.token });
    expect(missing.statusCode).toBe(400);
    const outsider = await ctx.newUser();
    const hidden = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/directory?teamId=${team.id}`,
      token: outsider.token,
    });
    expect(hidden.statusCode).toBe(404);
  });

  it('offers people who share another team with me but are not in this one', async () => {
    const me = await ctx.newUser();
    const a = await ctx.newTeam(me);
    const b = await ctx.newTeam(me);
    const elsewhere = await ctx.newTeam();
    const onlyInB = await ctx.addMember(b, 'member', await ctx.newUser({ name: 'Bea' }));
    const inBoth = await ctx.addMember(b, 'member');
    await ctx.addMember(a, 'member', inBoth);
    await ctx.addMember(elsewhere, 'member');
    const res = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${a.id}/invitable-members`,
      token: me.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [{ id: onlyInB.id, name: 'Bea', email: onlyInB.email }],
      nextCursor: null,
    });
    const forB = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${b.id}/invitable-members`,
      token: me.token,
    });
    expect(forB.json().items).toEqual([]);
  });

  it('changes roles: managers only, owners for owners, never the last owner', async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    const other = await ctx.addMember(team, 'member');

    expect((await setRole(team, member, other, 'admin')).statusCode).toBe(403);
    expect((await setRole(team, admin, member, 'owner')).json()).toMatchObject({ code: 'forbidden' });
    expect((await setRole(team, admin, team.owner, 'member')).statusCode).toBe(403);

    const promoted = await setRole(team, admin, member, 'admin');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ userId: member.id, role: 'admin', email: member.email });
    expect((await setRole(team, admin, member, 'admin')).statusCode).toBe(200);

    const lastOwner = await setRole(team, team.owner, team.owner, 'admin');
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json().error).toContain('last owner');

    expect((await setRole(team, team.owner, admin, 'owner')).json().role).toBe('owner');
    expect((await setRole(team, team.owner, team.owner, 'member')).json().role).toBe('member');
    expect((await setRole(team, team.owner, other, 'admin')).statusCode).toBe(403);

    const unknown = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/members/00000000-0000-4000-8000-000000000000`,
      token: admin.token,
      payload: { role: 'member' },
    });
    expect(unknown.statusCode).toBe(404);
    expect((await setRole(team, admin, other, 'boss')).statusCode).toBe(400);
    const badId = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/members/not-a-uuid`,
      token: admin.token,
      payload: { role: 'member' },
    });
    expect(badId.statusCode).toBe(400);
  });

  it('removes members: managers remove others, only owners remove owners, anyone leaves but the last owner', async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    const leaver = await ctx.addMember(team, 'member');
    const outsider = await ctx.newUser();

    expect((await remove(team, member, leaver)).statusCode).toBe(403);
    expect((await remove(team, admin, team.owner)).statusCode).toBe(403);
    expect((await remove(team, leaver, leaver)).statusCode).toBe(204);
    expect((await remove(team, admin, member)).statusCode).toBe(204);
    expect((await remove(team, admin, member)).statusCode).toBe(404);
    expect((await remove(team, admin, outsider)).statusCode).toBe(404);

    const lastOwner = await remove(team, team.owner, team.owner);
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json().code).toBe('conflict');

    expect((await remove(team, team.owner, admin)).statusCode).toBe(204);
    const left = await ctx.request({ method: 'GET', url: `/api/v1/teams/${team.id}`, token: leaver.token });
    expect(left.statusCode).toBe(404);
    const members = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/members`,
      token: team.owner.token,
    });
    expect(userIds(members.json())).toEqual([team.owner.id]);
  });
});
