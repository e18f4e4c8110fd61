import { describe, expect, it } from 'vitest';
import { markEmailVerified, requestAccountDeletion } from '../../../test/helpers/account.ts';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { sessionHelpers } from './sessions.test-support.ts';

const ctx = useTestContext();
const { newSession } = sessionHelpers(ctx);

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

/** A team with member F, a session, and F invited to it (and, with `accept`, accepted). */
async function sessionWithMemberGuest(accept: boolean) {
  const team = await ctx.newTeam();
  const member = await ctx.addMember(team);
  const session = await newSession(team, { endsAt: '2031-06-01T12:00:00.000Z' });
  const invited = await call('POST', `/api/v1/sessions/${session.id}/participants`, team.owner.token, {
    teamId: team.id,
    userId: member.id,
  });
  expect(invited.statusCode).toBe(201);
  if (accept) {
    const answered = await call('POST', `/api/v1/sessions/${session.id}/respond`, member.token, {
      accept: true,
      participantId: invited.json().id,
    });
    expect(answered.statusCode).toBe(200);
  }
  return { team, member, sessionId: session.id };
}

const readSession = (team: TestTeam, sessionId: number, user: TestUser) =>
  call('GET', `/api/v1/sessions/${sessionId}?teamId=${team.id}`, user.token);
const readGuests = (team: TestTeam, sessionId: number, user: TestUser) =>
  call('GET', `/api/v1/sessions/${sessionId}/participants?teamId=${team.id}`, user.token);

async function expectNoAccess(team: TestTeam, sessionId: number, user: TestUser) {
  expect((await readSession(team, sessionId, user)).statusCode).toBe(404);
  const guests = await readGuests(team, sessionId, user);
  expect(guests.statusCode).toBe(404);
  expect(guests.body).not.toContain('@');
}

const removeMember = (team: TestTeam, user: TestUser, by: TestUser) =>
  call('DELETE', `/api/v1/teams/${team.id}/members/${user.id}`, by.token);

describe("leaving a team ends the person's participation in its studio sessions", () => {
  for (const accept of [false, true]) {
    const state = accept ? 'accepted' : 'pending';
    it(`a removed member no longer reads the session or its guests (${state} invitation)`, async () => {
      const { team, member, sessionId } = await sessionWithMemberGuest(accept);
      expect((await readSession(team, sessionId, member)).statusCode).toBe(200);
      expect((await readGuests(team, sessionId, member)).statusCode).toBe(200);
      expect((await removeMember(team, member, team.owner)).statusCode).toBe(204);
      await expectNoAccess(team, sessionId, member);
      const guests = (await readGuests(team, sessionId, team.owner)).json();
      expect(guests.items).toEqual([]);
    });
  }

  it('a member who leaves loses it too; an outsider never had it', async () => {
    const { team, member, sessionId } = await sessionWithMemberGuest(true);
    expect((await removeMember(team, member, member)).statusCode).toBe(204);
    await expectNoAccess(team, sessionId, member);
    await expectNoAccess(team, sessionId, await ctx.newUser());
  });

  it('a demoted admin keeps their invitation: they are still a member', async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const { id: sessionId } = await newSession(team);
    await call('POST', `/api/v1/sessions/${sessionId}/participants`, team.owner.token, {
      teamId: team.id,
      userId: admin.id,
    });
    const demoted = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/members/${admin.id}`,
      token: team.owner.token,
      payload: { role: 'member' },
    });
    expect(demoted.statusCode).toBe(200);
    expect((await readGuests(team, sessionId, team.owner)).json().items).toHaveLength(1);
  });

  it('the team invites a former member again as a guest by e-mail', async () => {
    const { team, member, sessionId } = await sessionWithMemberGuest(true);
    // An invitation by address reaches an account only once that address is verified.
    await markEmailVerified(ctx, member);
    await removeMember(team, member, team.owner);
    const again = await call('POST', `/api/v1/sessions/${sessionId}/participants`, team.owner.token, {
      teamId: team.id,
      email: member.email,
    });
    expect(again.statusCode).toBe(201);
    expect((await readSession(team, sessionId, member)).statusCode).toBe(200);
  });

  it('deleting the account ends the participations, by user and by e-mail', async () => {
    const { team, member, sessionId } = await sessionWithMemberGuest(true);
    await markEmailVerified(ctx, member);
    const other = await newSession(team);
    await call('POST', `/api/v1/sessions/${other.id}/participants`, team.owner.token, {
      teamId: team.id,
      email: member.email.toUpperCase(),
    });
    const deletion = await requestAccountDeletion(ctx, member.token);
    expect(deletion.statusCode, deletion.body).toBe(202);
    for (const id of [sessionId, other.id])
      expect((await readGuests(team, id, team.owner)).json().items).toEqual([]);
  });
});

const inviteUrl = async (team: TestTeam, sessionId: number, by: TestUser) => {
  const res = await call('GET', `/api/v1/sessions/${sessionId}/invite-url?teamId=${team.id}`, by.token);
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
};
const join = (token: string, user: TestUser) =>
  call('POST', `/api/v1/session-links/${token}/join`, user.token);

describe('join links are revocable', () => {
  it('rotating revokes every earlier link; the new one works', async () => {
    const team = await ctx.newTeam();
    const { id: sessionId } = await newSession(team);
    const old = await inviteUrl(team, sessionId, team.owner);
    const rotated = await call('POST', `/api/v1/sessions/${sessionId}/invite-url/rotate`, team.owner.token, {
      teamId: team.id,
    });
    expect(rotated.statusCode).toBe(200);
    expect((await join(old, await ctx.newUser())).statusCode).toBe(404);
    expect((await join(rotated.json().token, await ctx.newUser())).statusCode).toBe(200);
    expect((await join(await inviteUrl(team, sessionId, team.owner), await ctx.newUser())).statusCode).toBe(
      200,
    );
  });

  it("rotation is for members of the session's team", async () => {
    const team = await ctx.newTeam();
    const { id: sessionId } = await newSession(team);
    const url = `/api/v1/sessions/${sessionId}/invite-url/rotate`;
    const outsider = await ctx.newUser();
    expect((await call('POST', url, outsider.token, { teamId: team.id })).statusCode).toBe(404);
    const key = await ctx.newApiKey(team);
    expect((await call('POST', url, key, { teamId: team.id })).statusCode).toBe(403);
  });

  it('a participant removed from the session does not come back through an old link, until invited again', async () => {
    const team = await ctx.newTeam();
    const { id: sessionId } = await newSession(team);
    const token = await inviteUrl(team, sessionId, team.owner);
    const guest = await ctx.newUser();
    await markEmailVerified(ctx, guest);
    const joined = await join(token, guest);
    expect(joined.statusCode, joined.body).toBe(200);
    const removed = await call(
      'DELETE',
      `/api/v1/sessions/${sessionId}/participants/${joined.json().id}?teamId=${team.id}`,
      team.owner.token,
    );
    expect(removed.statusCode).toBe(204);
    expect((await join(token, guest)).statusCode).toBe(404);
    expect((await join(await inviteUrl(team, sessionId, team.owner), guest)).statusCode).toBe(404);
    expect((await readSession(team, sessionId, guest)).statusCode).toBe(404);
    // Others still join with the link.
    expect((await join(token, await ctx.newUser())).statusCode).toBe(200);
    await call('POST', `/api/v1/sessions/${sessionId}/participants`, team.owner.token, {
      teamId: team.id,
      email: guest.email,
    });
    const back = await join(token, guest);
    expect(back.statusCode).toBe(200);
    expect(back.json().status).toBe('accepted');
  });

  it('a person removed from the team does not come back through a link made before', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team);
    const { id: sessionId } = await newSession(team);
    const token = await inviteUrl(team, sessionId, member);
    await removeMember(team, member, team.owner);
    expect((await join(token, member)).statusCode).toBe(404);
    await expectNoAccess(team, sessionId, member);
    expect((await join(token, await ctx.newUser())).statusCode).toBe(200);
  });
});

describe('calendar feeds end with the membership', () => {
  it('a feed handed to a member stops when they leave, and stays stopped when they come back', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team);
    const { id: sessionId } = await newSession(team);
    const follow = await call('GET', `/api/v1/sessions/${sessionId}/follow?teamId=${team.id}`, member.token);
    expect(follow.statusCode).toBe(200);
    const path = new URL(follow.json().icsUrl).pathname;
    expect((await ctx.request({ method: 'GET', url: path })).statusCode).toBe(200);
    await removeMember(team, member, member);
    expect((await ctx.request({ method: 'GET', url: path })).statusCode).toBe(404);
    await ctx.addMember(team, 'member', member);
    expect((await ctx.request({ method: 'GET', url: path })).statusCode).toBe(404);
  });
});
