import { describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../test/helpers/account.ts';
import { TestClock, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { type Method, workHelpers } from '../notifications/notifications.test-support.ts';
import { sessionHelpers } from '../sessions/sessions.test-support.ts';
import { planWithoutSeqScans, seqScannedTables } from '../stats/query-plan.test-support.ts';
import {
  followUpsDue,
  openInvites,
  organisationInvitationsAwaiting,
  reviewsAwaiting,
  sessionInvitations,
  unreadMentions,
} from './inbox.repository.ts';

const clock = new TestClock(Date.parse('2031-05-20T09:00:00.000Z'));
const ctx = useTestContext({ clock });
const { call, teamThread, remind, inviteToSession } = workHelpers(ctx);
const { newSession } = sessionHelpers(ctx);

type Item = {
  kind: string;
  id: string;
  teamId: number | null;
  title: string;
  data: Record<string, unknown>;
  actions: Record<string, { method: Method; path: string }>;
};
const inbox = async (user: TestUser) =>
  (await call('GET', '/api/v1/inbox/', user, undefined, 200)).body as {
    items: Item[];
    counts: Record<string, number>;
  };
/** A user whose address is verified: what was sent to the address alone reaches only such a user. */
const verifiedUser = async () => {
  const user = await ctx.newUser();
  await markEmailVerified(ctx, user);
  return user;
};
const ids = async (user: TestUser) => (await inbox(user)).items.map((i) => i.id);
/** Calls an item's action as `user`. */
const act = (user: TestUser, item: Item, action: string, payload?: object) =>
  call(item.actions[action]!.method, item.actions[action]!.path, user, payload);

describe('inbox', () => {
  it('is empty for someone with nothing waiting', async () => {
    const user = await ctx.newUser();
    expect(await inbox(user)).toEqual({
      items: [],
      nextCursor: null,
      counts: {
        invites: 0,
        organisationInvitations: 0,
        reviews: 0,
        sessions: 0,
        followUps: 0,
        mentions: 0,
        total: 0,
      },
    });
  });

  it('holds a team invite until it is declined or accepted, through the actions it names', async () => {
    const [first, second] = [await ctx.newTeam(), await ctx.newTeam()];
    const guest = await verifiedUser();
    for (const team of [first, second])
      await call('POST', `/api/v1/teams/${team.id}/invites`, team.owner, { email: guest.email }, 201);
    const { items, counts } = await inbox(guest);
    expect(counts).toMatchObject({ invites: 2, total: 2 });
    const [fromSecond, fromFirst] = items;
    expect(fromFirst).toMatchObject({ kind: 'team_invite', teamId: first.id, title: expect.any(String) });
    // Tokens are kept hashed: the actions name the invite by id, for the verified address it was sent to.
    expect(fromFirst!.actions.accept!.path).toBe(`/api/v1/user/invites/${fromFirst!.data.inviteId}/accept`);

    const declined = await act(guest, fromSecond!, 'decline');
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ teamId: second.id, declinedAt: clock.now().toISOString() });
    expect(await ids(guest)).toEqual([fromFirst!.id]);
    expect((await act(guest, fromSecond!, 'accept')).status).toBe(409);
    expect((await act(guest, fromSecond!, 'decline')).status).toBe(409);
    // A declined invite frees the address: the team may invite again.
    await call('POST', `/api/v1/teams/${second.id}/invites`, second.owner, { email: guest.email }, 201);

    expect((await act(guest, fromFirst!, 'accept')).status).toBe(200);
    expect((await inbox(guest)).items.map((i) => i.teamId)).toEqual([second.id]);
  });

  it('answers decline like accept: 404 unknown or another address, and shows nobody else the invite', async () => {
    const team = await ctx.newTeam();
    const [guest, other] = [await verifiedUser(), await verifiedUser()];
    await call('POST', `/api/v1/teams/${team.id}/invites`, team.owner, { email: guest.email }, 201);
    const [item] = (await inbox(guest)).items;
    expect((await act(other, item!, 'decline')).status).toBe(404);
    expect((await act(other, item!, 'accept')).status).toBe(404);
    expect((await call('POST', '/api/v1/user/invites/999999999/decline', guest)).status).toBe(404);
    expect((await call('POST', '/api/v1/invites/AAAAAAAAAAAAAAAAAAAAAAAA/decline', guest)).status).toBe(404);
    expect((await call('POST', '/api/v1/invites/short/decline', guest)).status).toBe(400);
    expect(await ids(other)).toEqual([]);
    expect(await ids(guest)).toEqual([item!.id]);
  });

  it('holds a review request until the reviewer decides, and only for reviewers who still see the track', async () => {
    const team = await ctx.newTeam();
    const [ana, ben] = [await ctx.addMember(team), await ctx.addMember(team)];
    const track = await ctx.newTrack(team);
    const base = `/api/v1/tracks/${track.id}/versions/${track.versionId}`;
    await call('POST', `${base}/review/request`, team.owner, { reviewerIds: [ana.id, ben.id] }, 200);
    const [item] = (await inbox(ana)).items;
    expect(item).toMatchObject({
      kind: 'review_request',
      teamId: team.id,
      data: { trackId: track.id, versionId: track.versionId, requestedBy: team.owner.id },
      actions: {
        open: { method: 'GET', path: base },
        decide: { method: 'POST', path: `${base}/review/decide` },
      },
    });
    expect((await act(ana, item!, 'decide', { status: 'approved' })).status).toBe(200);
    expect(await ids(ana)).toEqual([]);
    await call('DELETE', `/api/v1/teams/${team.id}/members/${ben.id}`, team.owner, undefined, 204);
    expect(await ids(ben)).toEqual([]);
  });

  it('holds a session invitation sent to the person’s address until it is answered or the session is over', async () => {
    const team = await ctx.newTeam();
    const guest = await verifiedUser();
    const session = await newSession(team, { startsAt: '2031-05-21T10:00:00.000Z' });
    const invited = await inviteToSession(team, session.id, guest.email);
    const cancelled = await newSession(team, { startsAt: '2031-05-22T10:00:00.000Z' });
    await inviteToSession(team, cancelled.id, guest.email);
    await call('PATCH', `/api/v1/sessions/${cancelled.id}`, team.owner, { status: 'cancelled' }, 200);

    const [item] = (await inbox(guest)).items;
    expect((await inbox(guest)).counts.sessions).toBe(1);
    expect(item).toMatchObject({
      kind: 'session_invitation',
      teamId: team.id,
      data: { sessionId: session.id, participantId: invited.id },
    });
    expect((await act(guest, item!, 'respond', { accept: false, participantId: invited.id })).status).toBe(
      200,
    );
    expect(await ids(guest)).toEqual([]);
  });

  it('holds unread mentions until the thread is read, in threads the person still sees', async () => {
    const team = await ctx.newTeam();
    const ana = await ctx.addMember(team);
    const threadId = await teamThread(team);
    const say = async (content: string) =>
      (await call('POST', `/api/v1/chat/threads/${threadId}/messages`, team.owner, { content }, 201)).body.id;
    const named = await say(`@[Ana](user:${ana.id}) have a listen`);
    await say('no names here');
    const deleted = await say(`@[Ana](user:${ana.id}) oops`);
    await call('DELETE', `/api/v1/chat/threads/${threadId}/messages/${deleted}`, team.owner, undefined, 204);

    const [item] = (await inbox(ana)).items;
    expect(item).toMatchObject({
      kind: 'mention',
      id: `mention:${named}`,
      data: { threadId, messageId: named },
    });
    expect((await inbox(ana)).counts.mentions).toBe(1);
    expect(await ids(team.owner)).toEqual([]);
    expect((await act(ana, item!, 'markRead', { lastReadMessageId: named })).status).toBe(200);
    expect(await ids(ana)).toEqual([]);

    const later = await say(`@[Ana](user:${ana.id}) again`);
    expect(await ids(ana)).toEqual([`mention:${later}`]);
    await call('DELETE', `/api/v1/teams/${team.id}/members/${ana.id}`, team.owner, undefined, 204);
    expect(await ids(ana)).toEqual([]);
  });

  it('holds due follow-ups until they are deleted, and not those of a team the person left', async () => {
    const team = await ctx.newTeam();
    await remind(
      team,
      'remind me to follow up with Maya on Instagram today',
      'remind me to follow up with Sam next month',
    );
    const { items } = await inbox(team.owner);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: 'follow_up_due',
      title: 'Maya',
      teamId: team.id,
      data: { botId: 'assistant' },
    });
    expect((await act(team.owner, items[0]!, 'open')).body.items).toHaveLength(2);
    expect((await act(team.owner, items[0]!, 'done')).status).toBe(204);
    expect(await ids(team.owner)).toEqual([]);
  });

  it('reads through indexes', async () => {
    const user = await ctx.newUser();
    const now = clock.now();
    for (const query of [
      openInvites(ctx.database.db, user.id, user.email, now),
      organisationInvitationsAwaiting(ctx.database.db, user.id, user.email, now),
      organisationInvitationsAwaiting(ctx.database.db, user.id, null, now),
      reviewsAwaiting(ctx.database.db, user.id),
      sessionInvitations(ctx.database.db, user.id, user.email, now),
      sessionInvitations(ctx.database.db, user.id, null, now),
      followUpsDue(ctx.database.db, user.id, now),
      unreadMentions(ctx.database.db, user.id),
    ]) {
      const plan = await planWithoutSeqScans(ctx.database, query.toSQL());
      expect(seqScannedTables(plan), plan).toEqual([]);
    }
  });
});

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/inbox', teamScoped: false, build: () => ({ url: '/api/v1/inbox/' }) },
];

describe('inbox route', () => {
  it('is session-only (S)', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.path === '/api/v1/inbox',
      { 'GET /api/v1/inbox': { auth: 'session', extension: false } },
      cases,
    );
  });
});

describeSecurityMatrix(ctx, cases);
