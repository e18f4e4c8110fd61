import { count, eq, lte } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_SECRETS,
  type TestTeam,
  type TestUser,
  useTestContext,
} from '../../../../test/helpers/context.ts';
import { buildApp } from '../../../app.ts';
import { chatEventStreams, domainEvents } from '../../../db/schema/index.ts';
import { writeEvents } from '../../../events/event-log.ts';
import { lastPosition } from '../../../events/events.repository.ts';
import { chatHelpers } from '../chat.test-support.ts';
import { openSse, type SseEvent, type SseStream } from '../fixtures/sse-client.ts';
import { MAX_REPLAY_EVENTS } from './event-streams.ts';
import { MAX_STREAMS_PER_USER } from './stream-slots.ts';

const ctx = useTestContext({ env: { CHAT_STREAM_HEARTBEAT_MS: '150' } });
const { call, expectOk, newThread, post } = chatHelpers(ctx);

let base = '';
let team: TestTeam;
let member: TestUser;

beforeAll(async () => {
  base = `${await ctx.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/chat/events`;
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
});

const stream = (user: TestUser, headers: Record<string, string> = {}, query = '') =>
  openSse(`${base}${query}`, user.token, headers);

const bodyOf = (event: SseEvent) => JSON.parse(event.data ?? '{}');
const ofType = (type: string) => (event: SseEvent) => event.event === type;
/** A message.created event of the message with this content. */
const message = (content: string) => (event: SseEvent) =>
  event.event === 'message.created' && bodyOf(event).data.message.content === content;

async function within<T>(streams: SseStream[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    for (const s of streams) s.close();
  }
}

describe('chat event stream', () => {
  it('streams the events of the caller’s threads as Server-Sent Events', async () => {
    const thread = await newThread(team);
    const s = await stream(member);
    await within([s], async () => {
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(s.headers.get('cache-control')).toBe('no-store');
      await s.next((e) => e.retry !== undefined);
      const sent = await post(thread.id, team.owner, 'live one');
      const event = await s.next(message('live one'));
      expect(event.id).toMatch(/^\d+$/);
      expect(bodyOf(event)).toEqual({
        id: event.id,
        type: 'message.created',
        threadId: thread.id,
        createdAt: expect.any(String),
        data: { message: { ...sent, reactions: undefined } },
      });
      await call('POST', `/api/v1/chat/threads/${thread.id}/messages/${sent.id}/reactions`, team.owner, {
        emoji: '👍',
      });
      const reaction = await s.next(ofType('reaction.added'));
      expect(bodyOf(reaction).data).toEqual({ messageId: sent.id, userId: team.owner.id, emoji: '👍' });
      await call('POST', `/api/v1/chat/threads/${thread.id}/typing`, team.owner, { typing: true });
      expect(bodyOf(await s.next(ofType('typing'))).data).toMatchObject({
        userId: team.owner.id,
        typing: true,
      });
      await s.next((e) => e.comment === 'heartbeat');
    });
  });

  it('resumes after Last-Event-ID with every missed event once, in order, then live ones', async () => {
    const thread = await newThread(team);
    const first = await stream(member);
    let lastId = '';
    await within([first], async () => {
      await post(thread.id, team.owner, 'before the gap');
      lastId = (await first.next(message('before the gap'))).id!;
    });
    const missed: { id: string }[] = [];
    for (const text of ['missed 1', 'missed 2', 'missed 3'])
      missed.push(await post(thread.id, team.owner, text));
    await call('POST', `/api/v1/chat/threads/${thread.id}/typing`, team.owner, { typing: true });
    await expectOk('PATCH', `/api/v1/chat/threads/${thread.id}/messages/${missed[0]!.id}`, team.owner, {
      content: 'missed 1, edited',
    });
    const other = await ctx.newTeam();
    await post((await newThread(other)).id, other.owner, 'not for the member');

    const resumed = await stream(member, { 'last-event-id': lastId });
    await within([resumed], async () => {
      await resumed.next(ofType('message.updated'));
      await post(thread.id, team.owner, 'after the resume');
      await resumed.next(message('after the resume'));
      const events = resumed.events();
      expect(events.map((e) => e.event)).toEqual([
        'message.created',
        'message.created',
        'message.created',
        'message.updated',
        'message.created',
      ]);
      expect(events.slice(0, 3).map((e) => e.body.data.message.id)).toEqual(missed.map((m) => m.id));
      const ids = events.map((e) => Number(e.id));
      expect(ids[0]).toBeGreaterThan(Number(lastId));
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    });

    // The query parameter does the same for clients that cannot set the header.
    const byQuery = await stream(member, {}, `?lastEventId=${lastId}`);
    await within([byQuery], async () => {
      await byQuery.next(message('after the resume'));
      expect(byQuery.events().filter((e) => e.event === 'message.created')).toHaveLength(4);
    });
  });

  it('stops a removed member’s events at once, live and on resume', async () => {
    const group = await newThread(team, { type: 'group', memberIds: [member.id] });
    const open = await newThread(team);
    const s = await stream(member);
    let lastId = '';
    await within([s], async () => {
      await post(group.id, team.owner, 'while a member');
      lastId = (await s.next(message('while a member'))).id!;
      await call('DELETE', `/api/v1/chat/threads/${group.id}/members/${member.id}`, team.owner);
      const removed = await s.next(ofType('member.removed'));
      expect(bodyOf(removed).data).toEqual({ userId: member.id, by: team.owner.id, reason: 'removed' });
      await post(group.id, team.owner, 'after the removal');
      await post(open.id, team.owner, 'still seen');
      await s.next(message('still seen'));
      expect(s.events().some((e) => e.body.data?.message?.content === 'after the removal')).toBe(false);
    });
    const resumed = await stream(member, { 'last-event-id': lastId });
    await within([resumed], async () => {
      await resumed.next(message('still seen'));
      const types = resumed.events().map((e) => e.event);
      expect(types).toEqual(['member.removed', 'message.created']);
    });
  });

  it('stops the events of a team thread for someone removed from the team', async () => {
    const leaving = await ctx.addMember(team, 'member');
    const thread = await newThread(team);
    const s = await stream(leaving);
    await within([s], async () => {
      await post(thread.id, team.owner, 'in the team');
      await s.next(message('in the team'));
      const res = await ctx.request({
        method: 'DELETE',
        url: `/api/v1/teams/${team.id}/members/${leaving.id}`,
        token: team.owner.token,
      });
      expect(res.statusCode).toBe(204);
      await post(thread.id, team.owner, 'out of the team');
      // A heartbeat after the post proves the stream is alive and the message was not sent.
      const mark = s.received.length;
      await s.next((e) => e.comment === 'heartbeat' && s.received.indexOf(e) >= mark);
      await s.next((e) => e.comment === 'heartbeat' && s.received.indexOf(e) >= mark + 1);
      expect(s.events().map((e) => e.body.data?.message?.content)).not.toContain('out of the team');
    });
  });

  it('tells everyone who saw a deleted thread, and its new members as they are added', async () => {
    const thread = await newThread(team, { type: 'group' });
    const s = await stream(member);
    await within([s], async () => {
      await expectOk('POST', `/api/v1/chat/threads/${thread.id}/members`, team.owner, {
        memberIds: [member.id],
      });
      expect(bodyOf(await s.next(ofType('member.added'))).data).toEqual({
        userId: member.id,
        by: team.owner.id,
      });
      await expectOk('PATCH', `/api/v1/chat/threads/${thread.id}`, team.owner, { name: 'renamed' });
      expect(bodyOf(await s.next(ofType('thread.updated'))).data.thread).toMatchObject({ name: 'renamed' });
      await call('DELETE', `/api/v1/chat/threads/${thread.id}`, team.owner);
      expect(bodyOf(await s.next(ofType('thread.deleted'))).data).toEqual({ threadId: thread.id });
    });
  });

  it('starts a resume with stream.gap when events after the id are no longer kept', async () => {
    const db = ctx.database.db;
    const thread = await newThread(team);
    const start = await lastPosition(db);
    await post(thread.id, team.owner, 'old one');
    await post(thread.id, team.owner, 'old two');
    // The log's retention deletes its oldest events.
    const forgotten = await lastPosition(db);
    await db.delete(domainEvents).where(lte(domainEvents.position, forgotten));
    // Events that are not on the streams fill positions between stream events.
    await writeEvents(
      db,
      [1, 2].map((i) => ({ type: 'test.unstreamed', subject: { type: 'test', id: i } })),
      new Date(),
    );
    await post(thread.id, team.owner, 'kept');
    const s = await stream(member, { 'last-event-id': String(start) });
    await within([s], async () => {
      const gap = await s.next(ofType('stream.gap'));
      expect(gap.id).toBeUndefined();
      expect(bodyOf(gap)).toMatchObject({ type: 'stream.gap', lastEventId: String(start) });
      await s.next(message('kept'));
    });
    // From the last forgotten one on, nothing the stream carries is missing.
    const whole = await stream(member, { 'last-event-id': String(forgotten) });
    await within([whole], async () => {
      await whole.next(message('kept'));
      expect(whole.events().map((e) => e.event)).toEqual(['message.created']);
    });
  });

  it('ends the stream of a session that signed out', async () => {
    const leaving = await ctx.addMember(team, 'member');
    const s = await stream(leaving);
    await within([s], async () => {
      await s.next((e) => e.retry !== undefined);
      await ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token: leaving.token });
      const closed = await s.next(ofType('stream.closed'));
      expect(bodyOf(closed)).toEqual({ type: 'stream.closed', reason: 'session_ended' });
      await s.ended;
    });
  });

  it('refuses a malformed Last-Event-ID with 400 before streaming', async () => {
    for (const headers of [{ 'last-event-id': 'abc' }, { 'last-event-id': '1'.repeat(20) }]) {
      const res = await ctx.request({
        method: 'GET',
        url: '/api/v1/chat/events',
        token: member.token,
        headers,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const mismatch = await ctx.request({
      method: 'GET',
      url: '/api/v1/chat/events?lastEventId=5',
      token: member.token,
      headers: { 'last-event-id': '6' },
    });
    expect(mismatch.statusCode).toBe(400);
  });

  it('ends open streams when the app closes', async () => {
    // A second app over the same database, as a second process would be, closed while a stream is open.
    const own = await buildApp({
      config: ctx.config,
      database: ctx.database,
      clock: ctx.clock,
      secrets: TEST_SECRETS,
      logger: false,
    });
    const url = `${await own.listen({ port: 0, host: '127.0.0.1' })}/api/v1/chat/events`;
    const s = await openSse(url, member.token);
    await s.next((e) => e.retry !== undefined);
    await own.close();
    expect(bodyOf(await s.next(ofType('stream.closed')))).toEqual({
      type: 'stream.closed',
      reason: 'shutdown',
    });
    await s.ended;
  });
});

describe('bounds of event streams', () => {
  const openRows = async (user: TestUser) => {
    const [row] = await ctx.database.db
      .select({ n: count() })
      .from(chatEventStreams)
      .where(eq(chatEventStreams.userId, user.id));
    return row!.n;
  };
  const opened = async (user: TestUser, headers: Record<string, string> = {}) => {
    const s = await stream(user, headers);
    await s.next((e) => e.retry !== undefined);
    return s;
  };

  it(`keeps ${MAX_STREAMS_PER_USER} streams of a person open and closes the oldest when another opens`, async () => {
    const user = await ctx.addMember(team, 'member');
    const other = await ctx.addMember(team, 'member');
    const streams: SseStream[] = [];
    await within(streams, async () => {
      for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await opened(user));
      const elsewhere = await opened(other);
      streams.push(elsewhere);
      expect(await openRows(user)).toBe(MAX_STREAMS_PER_USER);

      streams.push(await opened(user));
      const closed = await streams[0]!.next(ofType('stream.closed'));
      expect(bodyOf(closed)).toEqual({ type: 'stream.closed', reason: 'too_many_streams' });
      await streams[0]!.ended;
      expect(await openRows(user)).toBe(MAX_STREAMS_PER_USER);
      // The newer ones, the new one included, and the other person's stream go on.
      const thread = await newThread(team);
      await post(thread.id, team.owner, 'to every open stream');
      for (const s of streams.slice(1)) await s.next(message('to every open stream'));
      expect(streams[0]!.events().map((e) => e.event)).toEqual(['stream.closed']);
    });
    // Streams the client ended give their places back.
    const deadline = Date.now() + 5_000;
    while ((await openRows(user)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await openRows(user)).toBe(0);
  });

  it(`replays at most ${MAX_REPLAY_EVENTS} missed events; past that it starts with stream.reset`, async () => {
    const user = await ctx.addMember(team, 'member');
    const before = await lastPosition(ctx.database.db);
    const notification = (i: number) => ({
      type: 'notification.created',
      subject: { type: 'notification', id: i },
      payload: { notification: { i } },
      stream: { type: 'notification.created', recipients: [user.id] },
    });
    const write = (is: number[]) =>
      ctx.database.db.transaction((tx) => writeEvents(tx, is.map(notification), new Date()));
    await write(Array.from({ length: MAX_REPLAY_EVENTS + 1 }, (_, i) => i));

    const tooMany = await opened(user, { 'last-event-id': String(before) });
    await within([tooMany], async () => {
      const reset = await tooMany.next();
      expect(reset.id).toBeUndefined();
      expect(bodyOf(reset)).toEqual({
        type: 'stream.reset',
        lastEventId: String(before),
        maxReplayEvents: MAX_REPLAY_EVENTS,
      });
      await write([-1]);
      const live = await tooMany.next();
      expect(bodyOf(live).data).toEqual({ notification: { i: -1 } });
    });

    // From the second: exactly the bound is missed (the live one included), all replayed in order, no reset.
    const bounded = await opened(user, { 'last-event-id': String(before + 2) });
    await within([bounded], async () => {
      const last = await bounded.next((e) => e.event !== undefined && bodyOf(e).data?.notification?.i === -1);
      expect(last.event).toBe('notification.created');
      const events = bounded.events();
      expect(events.map((e) => e.event)).not.toContain('stream.reset');
      expect(events.map((e) => e.body.data.notification.i)).toEqual([
        ...Array.from({ length: MAX_REPLAY_EVENTS - 1 }, (_, i) => i + 2),
        -1,
      ]);
    });
  });
});
