import { describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';

const clock = new TestClock();
const ctx = useTestContext({ clock });

const DAY_MS = 24 * 60 * 60 * 1000;

const invite = (team: TestTeam, actor: TestUser, payload: object) =>
  ctx.request({ method: 'POST', url: `/api/v1/teams/${team.id}/invites`, token: actor.token, payload });

const listInvites = (team: TestTeam, actor: TestUser) =>
  ctx.request({ method: 'GET', url: `/api/v1/teams/${team.id}/invites`, token: actor.token });

const accept = (token: string, user: TestUser) =>
  ctx.request({ method: 'POST', url: `/api/v1/invites/${token}/accept`, token: user.token });

/** A fresh access token at the test clock's current time. */
async function signIn(user: TestUser): Promise<TestUser> {
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: user.email, password: user.password },
  });
  expect(res.statusCode).toBe(200);
  return { ...user, token: res.json().access_token };
}

describe('team invites', () => {
  it('invites by e-mail, answers the token once (lists never), and lets only the invited user accept, once', async () => {
    const team = await ctx.newTeam();
    const invitee = await ctx.newUser();
    const stranger = await ctx.newUser();
    const created = await invite(team, team.owner, { email: invitee.email.toUpperCase() });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toEqual({
      id: expect.any(Number),
      teamId: team.id,
      email: invitee.email, // stored normalised (lower case)
      role: 'member',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(7 * DAY_MS);

    const listed = await listInvites(team, team.owner);
    expect(listed.statusCode).toBe(200);
    const { token: _token, ...withoutToken } = body;
    expect(listed.json()).toEqual({ items: [withoutToken], nextCursor: null });

    const wrong = await accept(body.token, stranger);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('forbidden');

    const accepted = await accept(body.token, invitee);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ id: team.id, name: team.name, role: 'member', memberCount: 2 });

    const members = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/members`,
      token: invitee.token,
    });
    expect(members.json().items.map((m: { userId: string }) => m.userId)).toContain(invitee.id);

    const reused = await accept(body.token, invitee);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toContain('already been used');
    expect((await listInvites(team, team.owner)).json().items).toEqual([]);
  });

  it('lets exactly one of two concurrent accepts of one invite win', async () => {
    const team = await ctx.newTeam();
    const invitee = await ctx.newUser();
    const { token } = (await invite(team, team.owner, { email: invitee.email })).json();
    const results = await Promise.all([accept(token, invitee), accept(token, invitee)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const members = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/members`,
      token: invitee.token,
    });
    expect(members.json().items).toHaveLength(2);
  });

  it('refuses duplicates and existing members (409)', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const email = `dup-${ctx.unique()}@example.test`;
    expect((await invite(team, team.owner, { email })).statusCode).toBe(201);
    const again = await invite(team, team.owner, { email: email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain('already pending');
    const existing = await invite(team, team.owner, { email: member.email });
    expect(existing.statusCode).toBe(409);
    expect(existing.json().error).toContain('already a member');
  });

  it("respects the plan's member limit, counting pending invites", async () => {
    const team = await ctx.newTeam();
    await ctx.addMember(team, 'member');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await invite(team, team.owner, { email: `seat-${i}-${ctx.unique()}@example.test` });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    const full = await invite(team, team.owner, { email: `seat-x-${ctx.unique()}@example.test` });
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toContain('at most 5 members');
    const withdrawn = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/invites/${ids[0]}`,
      token: team.owner.token,
    });
    expect(withdrawn.statusCode).toBe(204);
    expect(
      (await invite(team, team.owner, { email: `seat-y-${ctx.unique()}@example.test` })).statusCode,
    ).toBe(201);
  });

  it('lets only owners and admins manage invites, and only owners invite admins', async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    const email = `x-${ctx.unique()}@example.test`;
    expect((await invite(team, member, { email })).statusCode).toBe(403);
    expect((await listInvites(team, member)).statusCode).toBe(403);
    const adminInvite = await invite(team, admin, { email, role: 'admin' });
    expect(adminInvite.statusCode).toBe(403);
    expect(adminInvite.json().error).toContain('Only an owner');
    const byAdmin = await invite(team, admin, { email });
    expect(byAdmin.statusCode).toBe(201);
    expect((await listInvites(team, admin)).json().items).toHaveLength(1);
    const del = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/invites/${byAdmin.json().id}`,
      token: member.token,
    });
    expect(del.statusCode).toBe(403);

    const future = await ctx.newUser();
    const ownerInvite = await invite(team, team.owner, { email: future.email, role: 'admin' });
    expect(ownerInvite.json().role).toBe('admin');
    expect((await accept(ownerInvite.json().token, future)).json().role).toBe('admin');
  });

  it('validates invites (400)', async () => {
    const team = await ctx.newTeam();
    for (const payload of [
      {},
      { email: 'not-an-email' },
      { email: `${'a'.repeat(320)}@example.test` },
      { email: 'a@example.test', role: 'owner' },
      { email: 'a@example.test', team: 1 },
    ]) {
      const res = await invite(team, team.owner, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const user = await ctx.newUser();
    const malformed = await accept('bad token!', user);
    expect(malformed.statusCode).toBe(400);
  });

  it('withdraws invites (204) and answers 404 for unknown, withdrawn or foreign ones', async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam();
    const invitee = await ctx.newUser();
    const created = (await invite(team, team.owner, { email: invitee.email })).json();
    const foreign = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${other.id}/invites/${created.id}`,
      token: other.owner.token,
    });
    expect(foreign.statusCode).toBe(404);
    const url = `/api/v1/teams/${team.id}/invites/${created.id}`;
    expect((await ctx.request({ method: 'DELETE', url, token: team.owner.token })).statusCode).toBe(204);
    expect((await ctx.request({ method: 'DELETE', url, token: team.owner.token })).statusCode).toBe(404);
    expect((await accept(created.token, invitee)).statusCode).toBe(404);
    expect((await accept('A'.repeat(32), invitee)).statusCode).toBe(404);
  });

  // Moves the shared clock forward: kept last so earlier tests run on fresh tokens.
  it('refuses an expired invite and lets a new one replace it', async () => {
    const team = await ctx.newTeam();
    const invitee = await ctx.newUser();
    const created = (await invite(team, team.owner, { email: invitee.email })).json();
    clock.advance(7 * DAY_MS - 1000);
    // Access tokens expire long before invites do: sign in again at the new time.
    expect((await listInvites(team, team.owner)).statusCode).toBe(401);
    const owner = await signIn(team.owner);
    expect((await listInvites(team, owner)).json().items).toHaveLength(1);

    clock.advance(2000);
    const late = await signIn(invitee);
    const expired = await accept(created.token, late);
    expect(expired.statusCode).toBe(409);
    expect(expired.json().error).toContain('expired');
    const owner2 = await signIn(team.owner);
    expect((await listInvites(team, owner2)).json().items).toEqual([]);

    const renewed = await invite(team, owner2, { email: invitee.email });
    expect(renewed.statusCode).toBe(201);
    expect((await accept(renewed.json().token, late)).statusCode).toBe(200);
  });
});
