import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../../../test/helpers/database.ts';
import { type ServerProcess, startServer, stopServer } from '../../../../test/helpers/server-process.ts';
import { call } from '../../webhooks/fixtures/server-api.ts';
import { openSse, type SseEvent, type SseStream } from '../fixtures/sse-client.ts';
import { MAX_STREAMS_PER_USER } from './stream-slots.ts';

const servers: ServerProcess[] = [];
const dataDirs: string[] = [];

/** Signs up through the API; answers the user's id and access token. */
async function signUp(server: ServerProcess, name: string) {
  const res = await call(server, 'POST', '/api/v1/auth/signup', undefined, {
    email: `chat-${name}-${randomBytes(4).toString('hex')}@example.test`,
    password: 'chat-processes-password',
  });
  if (res.status !== 201) throw new Error(`signup: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: String((res.body.user as { id: string }).id), token: String(res.body.access_token) };
}

const content = (text: string) => (e: SseEvent) =>
  e.event === 'message.created' && JSON.parse(e.data!).data.message.content === text;

// Processes share one database only on PostgreSQL (an embedded database belongs to one process).
describe.skipIf(!process.env.DATABASE_URL)('chat events across two server processes', () => {
  let url = '';

  beforeAll(async () => {
    const database = await cloneDatabase();
    url = database.url!;
    await database.close();
    const env = {
      DATABASE_URL: url,
      TOKEN_SECRET: randomBytes(32).toString('hex'),
      URL_SIGNING_SECRET: randomBytes(32).toString('hex'),
    };
    const started = await Promise.all(
      [1, 2].map(() => {
        const dir = mkdtempSync(join(tmpdir(), 'tmw-chat-'));
        dataDirs.push(dir);
        return startServer({ ...env, DATA_DIR: dir }, 60_000);
      }),
    );
    servers.push(...started);
  }, 90_000);

  afterAll(() => {
    for (const server of servers) server.child.kill('SIGKILL');
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it(`caps a person's streams at ${MAX_STREAMS_PER_USER} over both processes, closing the oldest`, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const user = await signUp(a, 'streams');
    const streams: SseStream[] = [];
    try {
      for (let i = 0; i < MAX_STREAMS_PER_USER; i++) {
        const s = await openSse(`${(i % 2 === 0 ? a : b).url}/api/v1/chat/events`, user.token);
        streams.push(s);
        await s.next((e) => e.retry !== undefined);
      }
      // The oldest is on process A; the stream past the cap opens on process B.
      const newest = await openSse(`${b.url}/api/v1/chat/events`, user.token);
      streams.push(newest);
      await newest.next((e) => e.retry !== undefined);
      const closed = await streams[0]!.next((e) => e.event === 'stream.closed');
      expect(JSON.parse(closed.data!)).toEqual({ type: 'stream.closed', reason: 'too_many_streams' });
      await streams[0]!.ended;
      // And past it again from A, the next oldest (on B) goes.
      const again = await openSse(`${a.url}/api/v1/chat/events`, user.token);
      streams.push(again);
      const next = await streams[1]!.next((e) => e.event === 'stream.closed');
      expect(JSON.parse(next.data!).reason).toBe('too_many_streams');
      for (const s of streams.slice(2)) expect(s.events().map((e) => e.event)).not.toContain('stream.closed');
    } finally {
      for (const s of streams) s.close();
    }
  }, 30_000);

  it('delivers a change made on one process to streams on the other, and ends them on shutdown', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const owner = await signUp(a, 'owner');
    const member = await signUp(b, 'member');
    const team = await call(a, 'POST', '/api/v1/teams/', owner.token, { name: 'Two processes' });
    expect(team.status).toBe(201);
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    await sql`insert into team_members (team_id, user_id, role) values (${Number(team.body.id)}, ${member.id}, 'member')`;
    await sql.end();

    const onB = await openSse(`${b.url}/api/v1/chat/events`, member.token);
    const onA = await openSse(`${a.url}/api/v1/chat/events`, owner.token);
    try {
      await onB.next((e) => e.retry !== undefined);
      await onA.next((e) => e.retry !== undefined);
      const thread = await call(a, 'POST', '/api/v1/chat/threads/', owner.token, {
        type: 'team',
        teamIds: [Number(team.body.id)],
        name: 'everyone',
      });
      expect(thread.status).toBe(201);
      const created = await onB.next((e) => e.event === 'thread.created');
      expect(JSON.parse(created.data!).threadId).toBe(thread.body.id);

      const sent = await call(a, 'POST', `/api/v1/chat/threads/${thread.body.id}/messages`, owner.token, {
        content: 'from process A',
      });
      expect(sent.status).toBe(201);
      const arrived = await onB.next(content('from process A'));
      expect(JSON.parse(arrived.data!).data.message.id).toBe(sent.body.id);

      await call(b, 'POST', `/api/v1/chat/threads/${thread.body.id}/messages`, member.token, {
        content: 'from process B',
      });
      await onA.next(content('from process A'));
      await onA.next(content('from process B'));

      // Studio session events travel the same way.
      const teamId = Number(team.body.id);
      const session = await call(a, 'POST', '/api/v1/sessions/', owner.token, {
        teamId,
        title: 'Tracking',
        startsAt: '2031-06-01T10:00:00.000Z',
      });
      const sessionUrl = `/api/v1/sessions/${session.body.id}`;
      const live = await call(a, 'POST', `${sessionUrl}/recordings/live`, owner.token, { teamId });
      const marker = await call(a, 'POST', `${sessionUrl}/recordings/${live.body.id}/markers`, owner.token, {
        teamId,
        label: 'Take 1',
        positionSeconds: 0,
      });
      expect(marker.status).toBe(201);
      const placed = await onB.next((e) => e.event === 'session.marker.created');
      expect(JSON.parse(placed.data!)).toMatchObject({
        sessionId: session.body.id,
        data: { markerId: marker.body.id },
      });

      const stopped = await Promise.all([stopServer(a, 'SIGTERM'), stopServer(b, 'SIGTERM')]);
      expect(stopped).toEqual([0, 0]);
      for (const stream of [onA, onB]) {
        const closed = await stream.next((e) => e.event === 'stream.closed');
        expect(JSON.parse(closed.data!)).toEqual({ type: 'stream.closed', reason: 'shutdown' });
        await stream.ended;
      }
    } finally {
      onA.close();
      onB.close();
    }
  }, 30_000);
});
