import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { activityEntries, chatThreads, followUpTasks, users } from '../../../db/schema/index.ts';
import { chatHelpers } from '../chat.test-support.ts';

// Thursday 26 November 2026, 23:30 UTC: already Friday 00:30 in Berlin, still Thursday 15:30 in Los Angeles.
const clock = new TestClock(Date.parse('2026-11-26T23:30:00Z'));
const ctx = useTestContext({ clock });
const { call, expectOk } = chatHelpers(ctx);

let team: TestTeam;
let berlin: TestUser;
let outsider: TestTeam;

async function setTimeZone(user: TestUser, timezone: string) {
  await ctx.database.db.update(users).set({ preferences: { timezone } }).where(eq(users.id, user.id));
}

async function say(user: TestUser, threadId: string, content: string) {
  await expectOk('POST', `/api/v1/chat/threads/${threadId}/messages`, user, { content });
  const page = await expectOk('GET', `/api/v1/chat/threads/${threadId}/messages?limit=1`, user);
  return page.items[0];
}

const open = (user: TestUser, teamId = team.id, botId = 'assistant') =>
  call('POST', `/api/v1/chat/bots/${botId}/open`, user, { teamId });

beforeAll(async () => {
  team = await ctx.newTeam();
  berlin = await ctx.addMember(team, 'member');
  outsider = await ctx.newTeam();
  await setTimeZone(team.owner, 'America/Los_Angeles');
  await setTimeZone(berlin, 'Europe/Berlin');
  await expectOk('POST', '/api/v1/contacts/', team.owner, { team_id: team.id, name: 'Maya' });
});

describe('chat bots', () => {
  it('lists the assistant for a team member, 404 for another team', async () => {
    const res = await call('GET', `/api/v1/chat/bots?teamId=${team.id}`, berlin);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([{ id: 'assistant', name: 'Assistant', description: expect.any(String) }]);
    expect((await call('GET', `/api/v1/chat/bots?teamId=${outsider.id}`, berlin)).status).toBe(404);
    expect((await call('GET', '/api/v1/chat/bots', berlin)).status).toBe(400);
  });

  it('opens one bot thread per person, team and bot, also under concurrency', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => open(berlin)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ type: 'bot', teamIds: [team.id] });
    const rows = await ctx.database.db
      .select({ id: chatThreads.id, botId: chatThreads.botId })
      .from(chatThreads)
      .where(eq(chatThreads.dedupeKey, `bot:assistant:${team.id}:${berlin.id}`));
    expect(rows).toEqual([{ id: [...ids][0], botId: 'assistant' }]);
    // Another person of the team gets their own thread and cannot see this one.
    const other = await open(team.owner);
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe([...ids][0]);
    expect((await call('GET', `/api/v1/chat/threads/${[...ids][0]}`, team.owner)).status).toBe(404);
  });

  it('refuses unknown bots, long bot ids, other teams and unknown fields', async () => {
    expect((await open(berlin, team.id, 'nobody')).status).toBe(404);
    expect((await open(berlin, team.id, 'x'.repeat(65))).status).toBe(400);
    expect((await open(berlin, outsider.id)).status).toBe(404);
    const extra = await call('POST', '/api/v1/chat/bots/assistant/open', berlin, { teamId: team.id, x: 1 });
    expect(extra.status).toBe(400);
  });

  it('answers a reminder with a follow-up task read in the user’s time zone', async () => {
    const threadId = (await open(berlin)).body.id;
    const reply = await say(berlin, threadId, 'remind me to follow up with Maya on Instagram next Friday');
    expect(reply).toMatchObject({ botId: 'assistant', authorId: null });
    expect(reply.content).toContain('Maya');
    expect(reply.content).toContain('Instagram');
    expect(reply.content).toContain('4 December 2026');

    const list = await expectOk('GET', `/api/v1/chat/bots/assistant/follow-ups?teamId=${team.id}`, berlin);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      person: 'Maya',
      network: 'instagram',
      status: 'open',
      contactId: expect.any(Number),
      // 09:00 in Berlin (UTC+1 in winter).
      dueAt: '2026-12-04T08:00:00.000Z',
    });
    // "Friday" is today in Berlin already, still tomorrow in Los Angeles.
    await say(berlin, threadId, 'follow up with Jo on tiktok Friday');
    const laThread = (await open(team.owner)).body.id;
    await say(team.owner, laThread, 'follow up with Jo on tiktok Friday');
    const [berlinTask] = (
      await expectOk('GET', `/api/v1/chat/bots/assistant/follow-ups?teamId=${team.id}&limit=1`, berlin)
    ).items;
    const [laTask] = (
      await expectOk('GET', `/api/v1/chat/bots/assistant/follow-ups?teamId=${team.id}`, team.owner)
    ).items;
    expect(berlinTask.dueAt).toBe('2026-11-27T08:00:00.000Z');
    expect(laTask.dueAt).toBe('2026-11-27T17:00:00.000Z');
    // Without a date: no due time.
    await say(berlin, threadId, 'remind me to text Sam');
    const [undated] = (
      await expectOk('GET', `/api/v1/chat/bots/assistant/follow-ups?teamId=${team.id}&limit=1`, berlin)
    ).items;
    expect(undated).toMatchObject({ person: 'Sam', network: null, dueAt: null, contactId: null });
  });

  it('lists open follow-ups, marks them done and explains itself otherwise', async () => {
    const threadId = (await open(berlin)).body.id;
    const listed = await say(berlin, threadId, 'list my follow-ups');
    expect(listed.content).toContain('Maya');
    const done = await say(berlin, threadId, 'done with Maya');
    expect(done.content).toContain('done');
    const [maya] = await ctx.database.db
      .select({ status: followUpTasks.status })
      .from(followUpTasks)
      .where(eq(followUpTasks.person, 'Maya'));
    expect(maya?.status).toBe('done');
    const help = await say(berlin, threadId, 'hello there');
    expect(help.content).toContain('remind me');
  });

  it('pages follow-ups and deletes only the caller’s own', async () => {
    const base = '/api/v1/chat/bots/assistant/follow-ups';
    const first = await expectOk('GET', `${base}?teamId=${team.id}&limit=2`, berlin);
    expect(first.items).toHaveLength(2);
    const rest = await expectOk(
      'GET',
      `${base}?teamId=${team.id}&limit=2&cursor=${first.nextCursor}`,
      berlin,
    );
    expect(rest.items.length).toBeGreaterThan(0);
    expect(rest.items.map((t: { id: string }) => t.id)).not.toContain(first.items[0].id);
    const task = first.items[0];
    expect((await call('DELETE', `${base}/${task.id}?teamId=${team.id}`, team.owner)).status).toBe(404);
    expect((await call('DELETE', `${base}/${task.id}?teamId=${outsider.id}`, berlin)).status).toBe(404);
    expect((await call('DELETE', `${base}/not-a-uuid?teamId=${team.id}`, berlin)).status).toBe(400);
    expect((await call('DELETE', `${base}/${task.id}?teamId=${team.id}`, berlin)).status).toBe(204);
    expect((await call('DELETE', `${base}/${task.id}?teamId=${team.id}`, berlin)).status).toBe(404);
    const activity = await ctx.database.db
      .select({ action: activityEntries.action })
      .from(activityEntries)
      .where(eq(activityEntries.subjectId, task.id));
    expect(activity.map((a) => a.action)).toEqual(['follow_up_created', 'follow_up_deleted']);
    expect((await call('GET', `${base}?teamId=${outsider.id}`, berlin)).status).toBe(404);
    expect((await call('GET', `/api/v1/chat/bots/nobody/follow-ups?teamId=${team.id}`, berlin)).status).toBe(
      404,
    );
  });
});

describe('follow-up drafts', () => {
  const draft = (user: TestUser, payload: object) => call('POST', '/api/v1/follow-ups/draft', user, payload);

  it('writes offline templates from the person, network and last messages', async () => {
    const messages = [
      { fromMe: true, text: 'Loved your set last night' },
      { fromMe: false, text: 'Thanks! Send me the demo when the mix is done' },
    ];
    const follow = await draft(berlin, {
      teamId: team.id,
      kind: 'follow_up',
      person: 'Maya',
      network: 'Instagram',
      messages,
    });
    expect(follow.status).toBe(200);
    expect(follow.body.provider).toBe('template');
    expect(follow.body.draft).toContain('Hi Maya');
    expect(follow.body.draft).toContain('on Instagram');
    expect(follow.body.draft).toContain('Send me the demo when the mix is done');
    for (const kind of ['thank_you', 'reminder', 'introduction']) {
      const res = await draft(berlin, {
        teamId: team.id,
        kind,
        person: 'Maya',
        network: 'email',
        messages: [],
      });
      expect(res.status).toBe(200);
      expect(res.body.draft).toContain('Maya');
    }
    const reminder = await draft(berlin, { teamId: team.id, kind: 'reminder', person: 'Maya', messages });
    expect(reminder.body.draft).toContain('Loved your set last night');
  });

  it('checks the team, the kind and the limits', async () => {
    const base = { teamId: team.id, kind: 'follow_up', person: 'Maya', network: 'x' };
    expect((await draft(berlin, { ...base, teamId: outsider.id })).status).toBe(404);
    expect((await draft(berlin, { ...base, kind: 'poem' })).status).toBe(400);
    expect((await draft(berlin, { ...base, person: '' })).status).toBe(400);
    const many = Array.from({ length: 51 }, () => ({ fromMe: true, text: 'hi' }));
    expect((await draft(berlin, { ...base, messages: many })).status).toBe(400);
    expect(
      (await draft(berlin, { ...base, messages: [{ fromMe: false, text: 'x'.repeat(2001) }] })).status,
    ).toBe(400);
    expect((await draft(berlin, { ...base, extra: true })).status).toBe(400);
  });
});
