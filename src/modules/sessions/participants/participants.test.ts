import { beforeAll, describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { sessionHelpers } from '../sessions.test-support.ts';

const NOW = Date.parse('2031-06-01T12:00:00.000Z');
const clock = new TestClock(NOW);
const ctx = useTestContext({ clock });
const { newSession, activityOf } = sessionHelpers(ctx);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

let team: TestTeam;
let member: TestUser;
let guest: TestUser;
let outsider: TestUser;
let session: { id: number };
let base: string;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
  guest = await ctx.newUser({ name: 'Gina Guest' });
  outsider = await ctx.newUser();
  // Both are invited by address below: only a verified address claims such an invitation.
  for (const user of [guest, outsider]) await markEmailVerified(ctx, user);
  session = await newSession(team);
  base = `/api/v1/sessions/${session.id}`;
});

describe('invitations', () => {
  it('invites a member by user id and anyone by e-mail, and lists them in invitation order', async () => {
    const byUser = await call('POST', `${base}/participants`, team.owner.token, {
      teamId: team.id,
      userId: member.id,
    });
    expect(byUser.statusCode, byUser.body).toBe(201);
    expect(byUser.json()).toEqual({
      id: expect.any(Number),
      sessionId: session.id,
      userId: member.id,
      email: null,
      name: null,
      status: 'invited',
      invitedBy: team.owner.id,
      respondedAt: null,
      createdAt: new Date(NOW).toISOString(),
      updatedAt: new Date(NOW).toISOString(),
    });
    const byEmail = await call('POST', `${base}/participants`, member.token, {
      email: guest.email.toUpperCase(),
      name: 'Gina',
    });
    expect(byEmail.statusCode, byEmail.body).toBe(201);
    expect(byEmail.json()).toMatchObject({ userId: null, email: guest.email.toUpperCase(), name: 'Gina' });

    const list = await call('GET', `${base}/participants?teamId=${team.id}`, member.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((p: { id: number }) => p.id)).toEqual([byUser.json().id, byEmail.json().id]);
    expect(list.json().nextCursor).toBeNull();
    const actions = (await activityOf(session.id)).map((a) => a.action);
    expect(actions.filter((a) => a === 'session.participant.invited')).toHaveLength(2);
  });

  it('refuses a second invitation of the same person (409), non-members by user id (404) and bad bodies (400)', async () => {
    const again = await call('POST', `${base}/participants`, team.owner.token, { email: guest.email });
    expect(again.statusCode).toBe(409);
    const stranger = await call('POST', `${base}/participants`, team.owner.token, { userId: outsider.id });
    expect(stranger.statusCode).toBe(404);
    for (const body of [
      {},
      { userId: member.id, email: 'a@b.test' },
      { email: 'not-an-address' },
      { email: 'a@b.test', role: 'x' },
    ]) {
      const res = await call('POST', `${base}/participants`, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const wrongTeam = await call('POST', `${base}/participants`, team.owner.token, {
      teamId: (await ctx.newTeam(team.owner)).id,
      email: 'x@y.test',
    });
    expect(wrongTeam.statusCode).toBe(404);
    const byOutsider = await call('POST', `${base}/participants`, outsider.token, { email: 'x@y.test' });
    expect(byOutsider.statusCode).toBe(404);
    const list = await call('GET', `${base}/participants?teamId=${team.id}`, member.token);
    expect(list.json().items).toHaveLength(2);
  });
});

describe('answers and guest access', () => {
  it('lets only the invited person answer, by e-mail too, and change the answer', async () => {
    const list = (await call('GET', `${base}/participants?teamId=${team.id}`, member.token)).json().items;
    const [forMember, forGuest] = list as { id: number }[];

    // Before answering, the e-mail invitee reads the session and its participants, nothing more.
    expect((await call('GET', `${base}?teamId=${team.id}`, guest.token)).statusCode).toBe(200);
    expect((await call('GET', `${base}/participants?teamId=${team.id}`, guest.token)).statusCode).toBe(200);
    expect((await call('GET', `${base}/canvas?teamId=${team.id}`, guest.token)).statusCode).toBe(404);
    expect((await call('GET', `${base}?teamId=${team.id}`, outsider.token)).statusCode).toBe(404);

    const forOther = await call('POST', `${base}/respond`, member.token, {
      accept: true,
      participantId: forGuest!.id,
    });
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().code).toBe('forbidden');
    const byOutsider = await call('POST', `${base}/respond`, outsider.token, {
      accept: true,
      participantId: forGuest!.id,
    });
    expect(byOutsider.statusCode).toBe(404);

    clock.advance(1000);
    const accepted = await call('POST', `${base}/respond`, guest.token, {
      accept: true,
      participantId: forGuest!.id,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      id: forGuest!.id,
      status: 'accepted',
      userId: guest.id,
      name: 'Gina',
      respondedAt: new Date(NOW + 1000).toISOString(),
    });

    // Accepted: the guest reads the session's contents but changes nothing.
    expect((await call('GET', `${base}/canvas?teamId=${team.id}`, guest.token)).statusCode).toBe(200);
    expect((await call('GET', `${base}/songs?teamId=${team.id}`, guest.token)).statusCode).toBe(200);
    expect((await call('GET', `${base}/files`, guest.token)).statusCode).toBe(200);
    expect((await call('PATCH', base, guest.token, { title: 'Mine now' })).statusCode).toBe(404);
    expect((await call('GET', `${base}/invite-url?teamId=${team.id}`, guest.token)).statusCode).toBe(404);
    const seen = (await call('GET', '/api/v1/sessions/', guest.token)).json().items;
    expect(seen.map((s: { id: number }) => s.id)).toEqual([session.id]);

    const declined = await call('POST', `${base}/respond`, guest.token, {
      accept: false,
      participantId: forGuest!.id,
    });
    expect(declined.json().status).toBe('declined');
    expect((await call('GET', `${base}/canvas?teamId=${team.id}`, guest.token)).statusCode).toBe(404);

    const memberAnswer = await call('POST', `${base}/respond`, member.token, {
      accept: false,
      participantId: forMember!.id,
    });
    expect(memberAnswer.json()).toMatchObject({ status: 'declined', userId: member.id });
    for (const body of [{ accept: 'yes', participantId: forMember!.id }, { accept: true }, {}]) {
      expect((await call('POST', `${base}/respond`, member.token, body)).statusCode).toBe(400);
    }
    expect(
      (await call('POST', `${base}/respond`, member.token, { accept: true, participantId: 99999 }))
        .statusCode,
    ).toBe(404);
    const actions = (await activityOf(session.id)).map((a) => a.action);
    expect(actions.filter((a) => a === 'session.participant.responded')).toHaveLength(3);
  });

  it('removes a participant (204), after which they see nothing', async () => {
    const invited = await call('POST', `${base}/participants`, team.owner.token, { email: outsider.email });
    expect((await call('GET', `${base}?teamId=${team.id}`, outsider.token)).statusCode).toBe(200);
    const url = `${base}/participants/${invited.json().id}`;
    expect((await call('DELETE', url, outsider.token)).statusCode).toBe(404);
    expect((await call('DELETE', url, member.token)).statusCode).toBe(204);
    expect((await call('DELETE', url, member.token)).statusCode).toBe(404);
    expect((await call('GET', `${base}?teamId=${team.id}`, outsider.token)).statusCode).toBe(404);
  });
});

describe('join links', () => {
  it('lets a signed-in user join through the link, once, as an accepted participant', async () => {
    const joiner = await ctx.newUser({ name: 'Joe' });
    const res = await call('GET', `${base}/invite-url?teamId=${team.id}`, member.token);
    expect(res.statusCode).toBe(200);
    const { url, token, expiresAt } = res.json();
    expect(url).toMatch(new RegExp(`/api/v1/session-links/${token.replace(/[.]/g, '\\.')}/join$`));
    expect(expiresAt).toBe(new Date(NOW + 1000 + 7 * 86_400_000).toISOString());

    const joined = await call('POST', `/api/v1/session-links/${token}/join`, joiner.token);
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json()).toMatchObject({
      userId: joiner.id,
      status: 'accepted',
      name: 'Joe',
      invitedBy: null,
    });
    const again = await ctx.request({
      method: 'POST',
      url: `/api/v1/session-links/${token}/join`,
      token: joiner.token,
      payload: {},
    });
    expect(again.json().id).toBe(joined.json().id);
    expect((await call('GET', `${base}/canvas?teamId=${team.id}`, joiner.token)).statusCode).toBe(200);
    const live = await call('GET', '/api/v1/sessions/', joiner.token);
    expect(live.json().items.map((s: { id: number }) => s.id)).toEqual([session.id]);
  });

  it('accepts the invitation a joiner already has instead of making a second one', async () => {
    const invitee = await ctx.newUser();
    await markEmailVerified(ctx, invitee);
    const invited = await call('POST', `${base}/participants`, team.owner.token, { email: invitee.email });
    const { token } = (await call('GET', `${base}/invite-url?teamId=${team.id}`, member.token)).json();
    const joined = await call('POST', `/api/v1/session-links/${token}/join`, invitee.token);
    expect(joined.json()).toMatchObject({ id: invited.json().id, status: 'accepted', userId: invitee.id });
  });

  it('answers 404 for the link of a deleted session', async () => {
    const doomed = await newSession(team);
    const { token } = (
      await call('GET', `/api/v1/sessions/${doomed.id}/invite-url?teamId=${team.id}`, member.token)
    ).json();
    expect((await call('DELETE', `/api/v1/sessions/${doomed.id}`, member.token)).statusCode).toBe(204);
    expect((await call('POST', `/api/v1/session-links/${token}/join`, outsider.token)).statusCode).toBe(404);
  });

  it('refuses tampered (403 invalid_signature) and expired (403 url_expired) links, and bodies', async () => {
    const joiner = await ctx.newUser();
    const { token } = (await call('GET', `${base}/invite-url?teamId=${team.id}`, member.token)).json();
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    const [payload] = token.split('.');
    const otherSession = Buffer.from(JSON.stringify({ s: session.id + 1, exp: 9_999_999_999 })).toString(
      'base64url',
    );
    for (const bad of [
      token.slice(0, -1) + last,
      `${otherSession}.${token.split('.')[1]}`,
      `${payload}`,
      'x',
    ]) {
      const res = await call('POST', `/api/v1/session-links/${bad}/join`, joiner.token);
      expect(res.statusCode, bad).toBe(403);
      expect(res.json().code).toBe('invalid_signature');
    }
    const withBody = await call('POST', `/api/v1/session-links/${token}/join`, joiner.token, {
      teamId: team.id,
    });
    expect(withBody.statusCode).toBe(400);
    clock.advance(7 * 86_400_000);
    // Access tokens expire by the same clock: sign in again.
    const login = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: joiner.email, password: joiner.password },
    });
    const fresh = login.json().access_token as string;
    const expired = await call('POST', `/api/v1/session-links/${token}/join`, fresh);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe('url_expired');
    expect((await call('GET', `${base}?teamId=${team.id}`, fresh)).statusCode).toBe(404);
  });
});
