import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { chatThreads, teams } from '../../../db/schema/index.ts';
import { chatHelpers } from '../chat.test-support.ts';
import { deleteExpiredChatRows } from '../events/events.jobs.ts';

const ctx = useTestContext();
const { call, newThread, post, eventsAbout } = chatHelpers(ctx);

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  [owner, admin, member, stranger] = await Promise.all([
    ctx.newUser(),
    ctx.newUser(),
    ctx.newUser(),
    ctx.newUser(),
  ]);
});

/** A new team of the same people: owner, admin and member (no sign-ups). */
async function teamWithMembers() {
  const team = await ctx.newTeam(owner);
  await ctx.addMember(team, 'admin', admin);
  await ctx.addMember(team, 'member', member);
  return { team, admin, member };
}

describe('chat threads', () => {
  it('creates a team thread every member of the team sees, with the thread view', async () => {
    const { team, member } = await teamWithMembers();
    const created = await call('POST', '/api/v1/chat/threads', team.owner, {
      type: 'team',
      teamIds: [team.id],
      name: 'general',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'team',
      name: 'general',
      teamIds: [team.id],
      memberIds: null,
      botId: null,
      createdBy: team.owner.id,
      lastMessage: null,
      lastMessageAt: null,
      unreadCount: 0,
      pinned: false,
    });
    expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    const seen = await call('GET', `/api/v1/chat/threads/${created.body.id}`, member);
    expect(seen.status).toBe(200);
    expect(seen.body.id).toBe(created.body.id);
    expect(await eventsAbout(created.body.id)).toMatchObject([
      {
        teamId: team.id,
        subjectType: 'chat_thread',
        type: 'created',
        actorUserId: team.owner.id,
        streamType: 'thread.created',
      },
    ]);
  });

  it('makes group threads for their chosen members only', async () => {
    const { team, admin, member } = await teamWithMembers();
    const group = await newThread(team, { type: 'group', memberIds: [member.id, member.id] });
    expect(group.memberIds.sort()).toEqual([team.owner.id, member.id].sort());
    expect((await call('GET', `/api/v1/chat/threads/${group.id}`, member)).status).toBe(200);
    // An admin of the team who is not a member does not see it.
    expect((await call('GET', `/api/v1/chat/threads/${group.id}`, admin)).status).toBe(404);
  });

  it('refuses members outside the teams, bot threads, and missing names, changing nothing', async () => {
    const { team, member } = await teamWithMembers();
    const before = await ctx.database.db.select().from(chatThreads);
    const cases: [object, string][] = [
      [
        { type: 'group', teamIds: [team.id], name: 'g', memberIds: [member.id, stranger.id] },
        '/body/memberIds/1',
      ],
      [{ type: 'bot', teamIds: [team.id], name: 'b' }, '/body/type'],
      [{ type: 'group', teamIds: [team.id] }, '/body/name'],
      [{ type: 'team', teamIds: [team.id], name: 't', memberIds: [member.id] }, '/body/memberIds'],
      [{ type: 'direct', teamIds: [team.id] }, '/body/memberIds'],
      [
        { type: 'direct', teamIds: [team.id], memberIds: [member.id, team.owner.id, stranger.id] },
        '/body/memberIds',
      ],
      [{ type: 'direct', teamIds: [team.id], memberIds: [team.owner.id] }, '/body/memberIds'],
      [{ type: 'team', teamIds: [], name: 't' }, '/body/teamIds'],
      [{ type: 'channel', teamIds: [team.id], name: 't' }, '/body/type'],
      [{ type: 'team', teamIds: [team.id], name: '   ' }, '/body/name'],
      [{ type: 'team', teamIds: [team.id], name: 't', topic: 'x' }, '/body/topic'],
    ];
    for (const [payload, path] of cases) {
      const res = await call('POST', '/api/v1/chat/threads', team.owner, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await ctx.database.db.select().from(chatThreads)).toEqual(before);
  });

  it('needs the creator in every listed team: a team they cannot see is 404', async () => {
    const { team } = await teamWithMembers();
    const other = await ctx.newTeam(stranger);
    const res = await call('POST', '/api/v1/chat/threads', team.owner, {
      type: 'team',
      teamIds: [team.id, other.id],
      name: 'both',
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const shared = await ctx.newTeam(team.owner);
    const both = await newThread(team, { teamIds: [team.id, shared.id] });
    expect(both.teamIds).toEqual([team.id, shared.id].sort((a, b) => a - b));
  });

  it('answers the existing direct thread of the same two people and teams (200), re-adding one who left', async () => {
    const { team, member } = await teamWithMembers();
    const first = await call('POST', '/api/v1/chat/threads', team.owner, {
      type: 'direct',
      teamIds: [team.id],
      memberIds: [member.id],
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ type: 'direct', name: null });
    const again = await call('POST', '/api/v1/chat/threads', member, {
      type: 'direct',
      teamIds: [team.id],
      memberIds: [team.owner.id.toUpperCase()],
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect((await call('POST', `/api/v1/chat/threads/${first.body.id}/leave`, member)).status).toBe(204);
    expect((await call('GET', `/api/v1/chat/threads/${first.body.id}`, member)).status).toBe(404);
    const back = await call('POST', '/api/v1/chat/threads', team.owner, {
      type: 'direct',
      teamIds: [team.id],
      memberIds: [member.id],
    });
    expect(back.status).toBe(200);
    expect(back.body.memberIds.sort()).toEqual([team.owner.id, member.id].sort());
    expect((await call('GET', `/api/v1/chat/threads/${first.body.id}`, member)).status).toBe(200);
  });

  it('lists the caller’s threads newest activity first with unreadCount, pinned and lastMessage', async () => {
    const { team, member } = await teamWithMembers();
    const other = await ctx.newTeam(team.owner);
    const a = await newThread(team, { name: 'a' });
    const b = await newThread(team, { name: 'b' });
    const c = await newThread(other, { name: 'c' });
    await post(a.id, team.owner, 'first');
    const last = await post(a.id, team.owner, 'second');
    await post(b.id, member, 'mine');
    expect((await call('POST', `/api/v1/chat/threads/${b.id}/pin`, member, { pinned: true })).status).toBe(
      200,
    );

    const mine = await call('GET', `/api/v1/chat/threads?teamId=${team.id}`, member);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((t: { id: string }) => t.id)).toEqual([b.id, a.id]);
    expect(mine.body.items[1]).toMatchObject({ unreadCount: 2, pinned: false, lastMessage: { id: last.id } });
    expect(mine.body.items[0]).toMatchObject({ unreadCount: 0, pinned: true });

    const all = await call('GET', '/api/v1/chat/threads/', team.owner);
    expect(all.body.items.slice(0, 3).map((t: { id: string }) => t.id)).toEqual([b.id, a.id, c.id]);
    expect(all.body.items[0].pinned).toBe(false);

    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: string }[]; nextCursor: string | null } } = await call(
        'GET',
        `/api/v1/chat/threads?teamId=${team.id}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        team.owner,
      );
      pages.push(...page.body.items.map((t) => t.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(pages).toEqual([b.id, a.id]);
  });

  it('hides another team’s threads: list, get and a teamId of theirs', async () => {
    const { team } = await teamWithMembers();
    const outsider = await ctx.newTeam(stranger);
    const thread = await newThread(team);
    expect((await call('GET', `/api/v1/chat/threads/${thread.id}`, outsider.owner)).status).toBe(404);
    expect((await call('GET', `/api/v1/chat/threads?teamId=${team.id}`, outsider.owner)).status).toBe(404);
    const theirs = await call('GET', '/api/v1/chat/threads', outsider.owner);
    expect(theirs.body.items.map((t: { id: string }) => t.id)).not.toContain(thread.id);
    expect((await call('GET', '/api/v1/chat/threads/not-a-uuid', team.owner)).status).toBe(400);
    expect((await call('GET', '/api/v1/chat/threads?cursor=garbage', team.owner)).status).toBe(400);
  });

  it('renames and deletes for the creator or a team admin only', async () => {
    const { team, admin, member } = await teamWithMembers();
    const thread = await newThread(team, { by: member });
    const byOwner = await newThread(team);
    const renamed = await call('PATCH', `/api/v1/chat/threads/${thread.id}`, member, { name: 'renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('renamed');
    const byAdmin = await call('PATCH', `/api/v1/chat/threads/${byOwner.id}`, admin, { name: 'by admin' });
    expect(byAdmin.body.name).toBe('by admin');
    const refused = await call('PATCH', `/api/v1/chat/threads/${byOwner.id}`, member, { name: 'nope' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    expect((await call('PATCH', `/api/v1/chat/threads/${byOwner.id}`, admin, { name: '' })).status).toBe(400);
    expect((await call('DELETE', `/api/v1/chat/threads/${byOwner.id}`, member)).status).toBe(403);

    await post(thread.id, member, 'going away');
    expect((await call('DELETE', `/api/v1/chat/threads/${thread.id}`, admin)).status).toBe(204);
    expect((await call('GET', `/api/v1/chat/threads/${thread.id}`, member)).status).toBe(404);
    expect((await call('GET', `/api/v1/chat/threads/${thread.id}/messages`, member)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/chat/threads/${thread.id}`, admin)).status).toBe(404);
  });

  it('are cleaned up once every team of theirs is deleted', async () => {
    const { team } = await teamWithMembers();
    const thread = await newThread(team);
    await post(thread.id, owner, 'soon gone');
    await ctx.database.db.delete(teams).where(eq(teams.id, team.id));
    await deleteExpiredChatRows(ctx.database.db, ctx.clock);
    expect(await ctx.database.db.select().from(chatThreads).where(eq(chatThreads.id, thread.id))).toEqual([]);
  });
});
