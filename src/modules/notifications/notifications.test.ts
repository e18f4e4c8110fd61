import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../test/helpers/account.ts';
import { TestClock, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { notifications } from '../../db/schema/index.ts';
import { openSse } from '../chat/fixtures/sse-client.ts';
import { organisationHelpers } from '../organisations/organisations.test-support.ts';
import { sessionHelpers } from '../sessions/sessions.test-support.ts';
import { notifyDueFollowUps } from './follow-ups-due.jobs.ts';
import { workHelpers } from './notifications.test-support.ts';

const clock = new TestClock(Date.parse('2031-05-20T09:00:00.000Z'));
const ctx = useTestContext({ clock });
const { call, teamThread, remind, inviteToSession } = workHelpers(ctx);
const { newSession } = sessionHelpers(ctx);
const { newOrganisation, addOrganisationMember, newCamp } = organisationHelpers(ctx);

const unread = async (user: TestUser) =>
  (await call('GET', '/api/v1/user/notifications', user, undefined, 200)).body;
const feed = async (user: TestUser, query = '') =>
  (await call('GET', `/api/v1/user/notification-feed${query}`, user, undefined, 200)).body;
const kinds = async (user: TestUser) =>
  (await feed(user)).items.map((n: { kind: string; subjectId: string }) => `${n.kind} ${n.subjectId}`);

/** A team of an owner and two members. */
async function trio() {
  const team = await ctx.newTeam();
  const [ana, ben] = [await ctx.addMember(team), await ctx.addMember(team)];
  return { team, owner: team.owner, ana, ben };
}

async function comment(
  track: { id: number; versionId: number },
  by: TestUser,
  parentId?: number,
  text = 'Nice bridge',
) {
  const url = `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`;
  return (await call('POST', url, by, { comment: text, ...(parentId ? { parentId } : {}) }, 201)).body;
}

const mention = (user: TestUser) => `@[someone](user:${user.id})`;

describe('notifications', () => {
  it("tells a track's creator of comments and a comment's author of replies, never the one who wrote", async () => {
    const { team, owner, ana, ben } = await trio();
    const track = await ctx.newTrack(team);
    const first = await comment(track, ana);
    const reply = await comment(track, ben, first.id);
    await comment(track, owner);

    const ownerFeed = await feed(owner);
    expect(ownerFeed.items.map((n: { kind: string }) => n.kind)).toEqual(['comment', 'comment']);
    expect(ownerFeed.items[0]).toEqual({
      id: expect.any(Number),
      kind: 'comment',
      teamId: team.id,
      organisationId: null,
      actor: expect.objectContaining({ id: ben.id }),
      subjectType: 'comment',
      subjectId: String(reply.id),
      data: { trackId: track.id, versionId: track.versionId, commentId: reply.id, parentId: first.id },
      link: `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`,
      read: false,
      readAt: null,
      createdAt: expect.any(String),
    });
    expect(await kinds(ana)).toEqual([`reply ${reply.id}`]);
    expect(await kinds(ben)).toEqual([]);
  });

  it('tells people a comment mentions, once, instead of the comment or reply they would get', async () => {
    const { team, owner, ana, ben } = await trio();
    const outsider = await ctx.newUser();
    const track = await ctx.newTrack(team);
    const first = await comment(track, ana);
    const reply = await comment(track, ben, first.id, `${mention(ana)} ${mention(outsider)} listen at 1:02`);
    const link = `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`;
    expect((await feed(ana)).items).toMatchObject([
      { kind: 'mention', subjectId: String(reply.id), link, data: { commentId: reply.id } },
    ]);
    expect(await kinds(owner)).toEqual([`comment ${reply.id}`, `comment ${first.id}`]);
    expect(await kinds(outsider)).toEqual([]);

    // An edit tells the people it adds, and nobody twice.
    const edit = { comment: `${mention(ana)} ${mention(owner)} listen at 1:03` };
    await call('PATCH', `${link}/${reply.id}`, ben, edit, 200);
    expect(await kinds(owner)).toEqual([`mention ${reply.id}`, `comment ${reply.id}`, `comment ${first.id}`]);
    expect(await kinds(ana)).toEqual([`mention ${reply.id}`]);
  });

  it('tells people of a team the track is shared with under that team', async () => {
    const { team, owner } = await trio();
    const partner = await ctx.newTeam();
    await ctx.addMember(partner, 'admin', owner);
    const track = await ctx.newTrack({ ...team, shareWith: [partner.id] });
    const theirs = await comment(track, partner.owner);
    const reply = await comment(track, owner, theirs.id);
    const [told] = (await feed(partner.owner)).items;
    expect(told).toMatchObject({ kind: 'reply', teamId: partner.id, subjectId: String(reply.id) });
    expect((await feed(owner)).items).toMatchObject([{ kind: 'comment', teamId: team.id }]);
  });

  it('tells reviewers they are asked, and the asker of each decision', async () => {
    const { team, owner, ana, ben } = await trio();
    const track = await ctx.newTrack(team);
    const base = `/api/v1/tracks/${track.id}/versions/${track.versionId}/review`;
    await call('POST', `${base}/request`, owner, { reviewerIds: [ana.id, ben.id] }, 200);
    const [forAna] = (await feed(ana)).items;
    expect(forAna).toMatchObject({
      kind: 'review_requested',
      actor: { id: owner.id },
      data: { trackId: track.id },
    });
    expect(await kinds(ben)).toEqual([`${forAna.kind} ${forAna.subjectId}`]);

    await call('POST', `${base}/decide`, ana, { status: 'approved' }, 200);
    await call('POST', `${base}/decide`, ben, { status: 'changes_requested' }, 200);
    const decided = (await feed(owner)).items;
    expect(
      decided.map((n: { actor: { id: string }; data: { decision: string } }) => [
        n.actor.id,
        n.data.decision,
      ]),
    ).toEqual([
      [ben.id, 'changes_requested'],
      [ana.id, 'approved'],
    ]);
  });

  it('tells a mentioned person who sees the thread, once per message, and not someone outside it', async () => {
    const { team, owner, ana } = await trio();
    const outsider = await ctx.newUser();
    const threadId = await teamThread(team);
    const posted = await call(
      'POST',
      `/api/v1/chat/threads/${threadId}/messages`,
      owner,
      { content: `${mention(ana)} and ${mention(outsider)} listen` },
      201,
    );
    await call(
      'PATCH',
      `/api/v1/chat/threads/${threadId}/messages/${posted.body.id}`,
      owner,
      {
        content: `${mention(ana)} listen again`,
      },
      200,
    );
    expect(await kinds(ana)).toEqual([`mention ${posted.body.id}`]);
    expect((await feed(ana)).items[0].link).toBe(`/api/v1/chat/threads/${threadId}/messages`);
    expect(await kinds(outsider)).toEqual([]);
  });

  it('tells an invited person of a team invite and a session invitation, though not in the team', async () => {
    const team = await ctx.newTeam();
    const guest = await ctx.newUser();
    // Sent to an address alone: only its verified account is told (the mail reaches the address itself).
    await markEmailVerified(ctx, guest);
    await call(
      'POST',
      `/api/v1/teams/${team.id}/invites`,
      team.owner,
      { email: guest.email.toUpperCase() },
      201,
    );
    const session = await newSession(team);
    const invited = await inviteToSession(team, session.id, guest.email);
    expect(
      (await feed(guest)).items.map((n: { kind: string; teamId: unknown; data: unknown }) => [
        n.kind,
        n.teamId,
        n.data,
      ]),
    ).toEqual([
      ['session_invitation', null, { sessionId: session.id, participantId: invited.id }],
      ['team_invite', null, { teamId: team.id, inviteId: expect.any(Number) }],
    ]);
  });

  it('tells an account whose address is not verified nothing of what was sent to that address', async () => {
    const team = await ctx.newTeam();
    const squatter = await ctx.newUser();
    await call('POST', `/api/v1/teams/${team.id}/invites`, team.owner, { email: squatter.email }, 201);
    await inviteToSession(team, (await newSession(team)).id, squatter.email);
    expect((await feed(squatter)).items).toEqual([]);
  });

  it('tells organisation owners and admins of camp answers', async () => {
    const organisation = await newOrganisation();
    const admin = await addOrganisationMember(organisation, 'admin');
    const member = await addOrganisationMember(organisation, 'member');
    const camp = await newCamp(organisation);
    await call(
      'POST',
      `/api/v1/organisations/${organisation.id}/camps/${camp.id}/rsvp`,
      member,
      { status: 'maybe' },
      200,
    );
    await call(
      'POST',
      `/api/v1/organisations/${organisation.id}/camps/${camp.id}/rsvp`,
      member,
      { status: 'accepted' },
      200,
    );
    for (const manager of [organisation.owner, admin]) {
      const items = (await feed(manager)).items;
      expect(items.map((n: { data: { status: string } }) => n.data.status)).toEqual(['accepted', 'maybe']);
      expect(items[0]).toMatchObject({ kind: 'camp_rsvp', organisationId: organisation.id, teamId: null });
    }
    expect(await kinds(member)).toEqual([]);
  });

  it('tells of follow-ups falling due once per due time', async () => {
    const team = await ctx.newTeam();
    await remind(team, 'remind me to follow up with Maya on Instagram tomorrow');
    expect(await notifyDueFollowUps(ctx.database.db, clock)).toBe(0);
    // Run as it would two days on (the test's own clock stays, so its sessions stay valid).
    const later = new TestClock(clock.now().getTime() + 2 * 24 * 3_600_000);
    expect(await notifyDueFollowUps(ctx.database.db, later)).toBe(1);
    expect(await notifyDueFollowUps(ctx.database.db, later)).toBe(0);
    const [due] = (await feed(team.owner)).items.filter((n: { kind: string }) => n.kind === 'follow_up_due');
    expect(due).toMatchObject({
      actor: null,
      teamId: team.id,
      data: { botId: 'assistant', teamId: team.id },
    });
    expect(due.link).toBe('/api/v1/chat/bots/assistant/follow-ups');
  });

  it('follows the preferences: a kind turned off is not made', async () => {
    const { team, owner, ana } = await trio();
    await call('PATCH', '/api/v1/user/preferences', owner, { notifyOnComments: false }, 200);
    const track = await ctx.newTrack(team);
    await comment(track, ana);
    expect(await kinds(owner)).toEqual([]);
    await call('PATCH', '/api/v1/user/preferences', owner, { notifyOnComments: true }, 200);
    const later = await comment(track, ana);
    expect(await kinds(owner)).toEqual([`comment ${later.id}`]);
  });

  it('lists unread ones with their count, pages the feed, and marks read by ids or all', async () => {
    const { team, owner, ana } = await trio();
    const track = await ctx.newTrack(team);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await comment(track, ana));
    const first = await unread(owner);
    expect(first.unreadCount).toBe(5);
    expect(first.items.map((n: { subjectId: string }) => Number(n.subjectId))).toEqual(
      made.map((c) => c.id).reverse(),
    );

    const page = await feed(owner, '?limit=2');
    expect(page.items).toHaveLength(2);
    const rest = await feed(owner, `?limit=10&cursor=${page.nextCursor}`);
    expect(rest.items).toHaveLength(3);
    expect(rest.nextCursor).toBeNull();

    const ids = first.items.slice(0, 2).map((n: { id: number }) => n.id);
    const anaOwn = (await call('POST', '/api/v1/user/notifications/read', ana, { ids }, 200)).body;
    expect(anaOwn).toEqual({ marked: 0, unreadCount: 0 });
    const marked = (await call('POST', '/api/v1/user/notifications/read', owner, { ids }, 200)).body;
    expect(marked).toEqual({ marked: 2, unreadCount: 3 });
    expect((await unread(owner)).items.map((n: { id: number }) => n.id)).not.toContain(ids[0]);
    const readOne = (await feed(owner)).items.find((n: { id: number }) => n.id === ids[0]);
    expect(readOne).toMatchObject({ read: true, readAt: clock.now().toISOString() });
    expect((await call('POST', '/api/v1/user/notifications/read', owner, { all: true }, 200)).body).toEqual({
      marked: 3,
      unreadCount: 0,
    });
  });

  it('refuses bad mark-read bodies and changes nothing', async () => {
    const { team, owner, ana } = await trio();
    await comment(await ctx.newTrack(team), ana);
    for (const payload of [
      {},
      { ids: [] },
      { ids: ['x'] },
      { ids: [0] },
      { all: false },
      { ids: [1], all: true },
      { ids: [1, 1] },
    ]) {
      const res = await call('POST', '/api/v1/user/notifications/read', owner, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect((await unread(owner)).unreadCount).toBe(1);
    for (const query of ['?limit=0', '?limit=201', '?cursor=nope']) {
      const res = await call('GET', `/api/v1/user/notification-feed${query}`, owner);
      expect(res.status, query).toBe(400);
    }
  });

  it('never shows a notification about a team the person has left', async () => {
    const { team, owner, ana } = await trio();
    const track = await ctx.newTrack(team);
    const base = `/api/v1/tracks/${track.id}/versions/${track.versionId}/review`;
    await call('POST', `${base}/request`, owner, { reviewerIds: [ana.id] }, 200);
    const own = await ctx.newTeam(ana);
    const stays = await comment(await ctx.newTrack(own), await ctx.addMember(own));
    expect((await unread(ana)).unreadCount).toBe(2);

    await call('DELETE', `/api/v1/teams/${team.id}/members/${ana.id}`, ana, undefined, 204);
    expect(await kinds(ana)).toEqual([`comment ${stays.id}`]);
    expect((await unread(ana)).unreadCount).toBe(1);
    expect((await unread(ana)).items).toHaveLength(1);
    expect(
      (await call('POST', '/api/v1/user/notifications/read', ana, { all: true }, 200)).body.unreadCount,
    ).toBe(0);
    const stored = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, ana.id));
    expect(stored.map((n) => n.kind).sort()).toEqual(['comment', 'review_requested']);
  });

  it('sends new notifications on the real-time stream, to their person only', async () => {
    const { team, owner, ana } = await trio();
    const base = `${await ctx.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/chat/events`;
    const [mine, theirs] = [await openSse(base, owner.token), await openSse(base, ana.token)];
    try {
      const made = await comment(await ctx.newTrack(team), ana);
      const event = await mine.next((e) => e.event === 'notification.created');
      const body = JSON.parse(event.data!);
      expect(body).toEqual({
        id: event.id,
        type: 'notification.created',
        createdAt: expect.any(String),
        data: { notification: expect.objectContaining({ kind: 'comment', subjectId: String(made.id) }) },
      });
      expect(body.data.notification).toEqual((await feed(owner)).items[0]);
      // Ana's own notification, made after: her stream carries it and nothing before it.
      const own = await ctx.newTeam(ana);
      const hers = await comment(await ctx.newTrack(own), await ctx.addMember(own));
      const herEvent = await theirs.next((e) => e.event === 'notification.created');
      expect(JSON.parse(herEvent.data!).data.notification.subjectId).toBe(String(hers.id));
      expect(Number(herEvent.id)).toBeGreaterThan(Number(event.id));
    } finally {
      mine.close();
      theirs.close();
    }
  });
});

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/user/notifications',
    teamScoped: false,
    build: () => ({ url: '/api/v1/user/notifications' }),
  },
  {
    method: 'GET',
    path: '/api/v1/user/notification-feed',
    teamScoped: false,
    build: () => ({ url: '/api/v1/user/notification-feed' }),
  },
  {
    method: 'POST',
    path: '/api/v1/user/notifications/read',
    teamScoped: false,
    build: () => ({ url: '/api/v1/user/notifications/read', payload: { all: true } }),
  },
];

describe('notification routes', () => {
  it('are session-only (S)', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.path.startsWith('/api/v1/user/notification'),
      {
        'GET /api/v1/user/notifications': { auth: 'session', extension: false },
        'GET /api/v1/user/notification-feed': { auth: 'session', extension: false },
        'POST /api/v1/user/notifications/read': { auth: 'session', extension: true },
      },
      cases,
    );
  });
});

describeSecurityMatrix(ctx, cases);
