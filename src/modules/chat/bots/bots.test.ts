import { monitorEventLoopDelay } from 'node:perf_hooks';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { chatMessages, chatThreads, followUpTasks, jobs, users } from '../../../db/schema/index.ts';
import { chatHelpers } from '../chat.test-support.ts';
import { BOT_ANSWER_JOB } from './bot-answers.ts';

// Thursday 26 November 2026, 23:30 UTC: already Friday 00:30 in Berlin, still Thursday 15:30 in Los Angeles.
const clock = new TestClock(Date.parse('2026-11-26T23:30:00Z'));
const ctx = useTestContext({ clock });
const { call, expectOk, botAnswer, eventsAbout } = chatHelpers(ctx);

let team: TestTeam;
let berlin: TestUser;
let outsider: TestTeam;

async function setTimeZone(user: TestUser, timezone: string) {
  await ctx.database.db.update(users).set({ preferences: { timezone } }).where(eq(users.id, user.id));
}

async function say(user: TestUser, threadId: string, content: string) {
  const message = await expectOk('POST', `/api/v1/chat/threads/${threadId}/messages`, user, { content });
  return botAnswer(threadId, user, message.id);
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
    const recorded = await eventsAbout(task.id);
    expect(recorded.map((e) => [e.type, e.teamId, e.streamType])).toEqual([
      ['follow_up_created', team.id, null],
      ['follow_up_deleted', team.id, null],
    ]);
    expect((await call('GET', `${base}?teamId=${outsider.id}`, berlin)).status).toBe(404);
    expect((await call('GET', `/api/v1/chat/bots/nobody/follow-ups?teamId=${team.id}`, berlin)).status).toBe(
      404,
    );
  });
});

describe('the assistant’s answers, written by a job after the message is stored', () => {
  const messagesOf = async (user: TestUser, threadId: string) =>
    (await expectOk('GET', `/api/v1/chat/threads/${threadId}/messages?limit=10`, user)).items;
  const queuedAnswers = () =>
    ctx.database.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.type, BOT_ANSWER_JOB));

  it('answers 201 at once, then answers from the queued job once, however often the job runs', async () => {
    const user = await ctx.addMember(team, 'member');
    const threadId = (await open(user)).body.id;
    const posted = await call('POST', `/api/v1/chat/threads/${threadId}/messages`, user, {
      content: 'remind me to ping Ola tomorrow',
    });
    expect(posted.status).toBe(201);
    expect((await messagesOf(user, threadId)).map((m: { id: string }) => m.id)).toEqual([posted.body.id]);
    const queued = await queuedAnswers();
    expect(queued.map((j) => j.payload)).toEqual([{ threadId, messageId: posted.body.id, userId: user.id }]);

    const answer = await botAnswer(threadId, user, posted.body.id);
    expect(answer.content).toContain('Ola');
    // Delivered again (a process stopped after writing the answer, before recording the job): nothing more.
    await ctx.app.services.jobs.enqueue(ctx.database.db, BOT_ANSWER_JOB, queued[0]!.payload);
    expect(await ctx.app.services.jobs.runDue()).toBeGreaterThan(0);
    expect((await messagesOf(user, threadId)).map((m: { id: string }) => m.id)).toEqual([
      answer.id,
      posted.body.id,
    ]);
    const tasks = await ctx.database.db
      .select({ id: followUpTasks.id })
      .from(followUpTasks)
      .where(and(eq(followUpTasks.userId, user.id), eq(followUpTasks.person, 'Ola')));
    expect(tasks).toHaveLength(1);
    expect(await queuedAnswers()).toEqual([]);
  });

  it('writes no answer once the user has left the team', async () => {
    const user = await ctx.addMember(team, 'member');
    const threadId = (await open(user)).body.id;
    const posted = await call('POST', `/api/v1/chat/threads/${threadId}/messages`, user, {
      content: 'list my follow-ups',
    });
    expect(posted.status).toBe(201);
    expect((await call('DELETE', `/api/v1/teams/${team.id}/members/${user.id}`, team.owner)).status).toBe(
      204,
    );
    await ctx.app.services.jobs.runDue();
    expect(await queuedAnswers()).toEqual([]);
    const rows = await ctx.database.db
      .select({ id: chatThreads.id })
      .from(chatThreads)
      .where(eq(chatThreads.id, threadId));
    expect(rows).toHaveLength(1);
    const answers = await ctx.database.db
      .select({ botReplyId: chatMessages.botReplyId })
      .from(chatMessages)
      .where(eq(chatMessages.threadId, threadId));
    expect(answers).toEqual([{ botReplyId: null }]);
  });

  it.each([
    ['the reported message', `done${' '.repeat(2_500)}\nx\ny`],
    ['a message of 10,000 characters', `done${' '.repeat(10_000 - 8)}\nx\ny`],
  ])('stores %s with 201 and answers it without stalling the process', async (_, content) => {
    expect(content.length).toBeLessThanOrEqual(10_000);
    const user = await ctx.addMember(team, 'member');
    const threadId = (await open(user)).body.id;
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    const posted = await call('POST', `/api/v1/chat/threads/${threadId}/messages`, user, { content });
    const answer = await botAnswer(threadId, user, posted.body.id);
    stalls.disable();
    expect(posted.status).toBe(201);
    expect(answer.content).toContain('remind me');
    // The longest the event loop (and every other tenant's request) waited; the old parser took 20 s here.
    expect(stalls.max / 1e6).toBeLessThan(1_000);
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
