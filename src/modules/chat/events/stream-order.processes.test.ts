import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../../../test/helpers/database.ts';
import { type ServerProcess, startServer, stopServer } from '../../../../test/helpers/server-process.ts';
import { call } from '../../webhooks/fixtures/server-api.ts';
import { openSse, type SseEvent } from '../fixtures/sse-client.ts';

type User = { id: string; token: string; email: string };
type Received = { position: number; type: string; threadId?: string; messageId?: string };

const WRITERS = 20;
const MESSAGES_PER_WRITER = 5;
const SENTINEL = 'the last word';

/** A small seeded generator, so a failing run names the seed that reproduces its disconnects. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function ok(server: ServerProcess, method: string, path: string, token?: string, body?: unknown) {
  const res = await call(server, method, path, token, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function signUp(server: ServerProcess, name: string): Promise<User> {
  const email = `order-${name}-${randomBytes(4).toString('hex')}@example.test`;
  const body = await ok(server, 'POST', '/api/v1/auth/signup', undefined, {
    email,
    password: 'stream-order-password',
  });
  return { id: String((body.user as { id: string }).id), token: String(body.access_token), email };
}

// Two processes share one PostgreSQL database; the embedded database serves one process, so there one.
const shared = Boolean(process.env.DATABASE_URL);

describe('the chat stream over the event log', () => {
  const servers: ServerProcess[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    const secret = randomBytes(32).toString('hex');
    const env: Record<string, string> = { TOKEN_SECRET: secret, URL_SIGNING_SECRET: secret };
    const dir = mkdtempSync(join(tmpdir(), 'tmw-order-'));
    dirs.push(dir);
    if (shared) {
      const database = await cloneDatabase();
      env.DATABASE_URL = database.url!;
      await database.close();
    }
    // One after the other: each applies the migrations at start.
    for (let i = 0; i < (shared ? 2 : 1); i++)
      servers.push(await startServer({ ...env, DATA_DIR: dir }, 150_000));
  }, 320_000);

  afterAll(async () => {
    for (const server of servers) await stopServer(server, 'SIGTERM');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('gives every stream each event it may see once, in position order, across disconnects and processes', async () => {
    const seed = Date.now();
    const rng = random(seed);
    const on = (i: number) => servers[i % servers.length]!;
    const [owner, m1, m2, m3, partial] = await Promise.all(
      ['owner', 'm1', 'm2', 'm3', 'partial'].map((name, i) => signUp(on(i), name)),
    );
    const team = await ok(on(0), 'POST', '/api/v1/teams/', owner!.token, { name: 'Stream order' });
    for (const [i, user] of [m1!, m2!, m3!, partial!].entries()) {
      const invite = await ok(on(i), 'POST', `/api/v1/teams/${team.id}/invites`, owner!.token, {
        email: user.email,
        role: 'member',
      });
      await ok(on(i + 1), 'POST', `/api/v1/invites/${invite.token}/accept`, user.token);
    }
    const thread = async (type: string, name: string, members: User[]) =>
      String(
        (
          await ok(on(0), 'POST', '/api/v1/chat/threads/', owner!.token, {
            type,
            name,
            teamIds: [team.id],
            ...(type === 'group' ? { memberIds: members.map((m) => m.id) } : {}),
          })
        ).id,
      );
    const everyone = await thread('team', 'everyone', []);
    const withPartial = await thread('group', 'with partial', [m1!, m2!, partial!]);
    const without = await thread('group', 'without partial', [m1!, m2!, m3!]);
    const threads = [
      { id: everyone, authors: [owner!, m1!, m2!, m3!, partial!] },
      { id: withPartial, authors: [owner!, m1!, m2!, partial!] },
      { id: without, authors: [owner!, m1!, m2!, m3!] },
    ];
    const followers = [
      { user: owner!, sees: new Set([everyone, withPartial, without]) },
      { user: m1!, sees: new Set([everyone, withPartial, without]) },
      { user: m3!, sees: new Set([everyone, without]) },
      { user: partial!, sees: new Set([everyone, withPartial]) },
    ];

    /** Follows one person's stream until the sentinel, ending it after a few events and resuming elsewhere. */
    const follow = async (user: User, start: number, opened: () => void) => {
      const received: Received[] = [];
      let lastId: string | undefined;
      for (let turn = start; ; turn++) {
        const server = on(turn);
        const s = await openSse(
          `${server.url}/api/v1/chat/events`,
          user.token,
          lastId === undefined ? {} : { 'last-event-id': lastId },
        );
        try {
          expect(s.status).toBe(200);
          if (lastId === undefined) {
            // Live from here: the writers start once every stream is open.
            await s.next((e) => e.retry !== undefined);
            opened();
          }
          const cut = 1 + Math.floor(rng() * 12);
          for (let n = 0; n < cut; n++) {
            const event: SseEvent = await s.next((e) => e.event !== undefined, 30_000);
            if (event.id === undefined) throw new Error(`seed ${seed}: unexpected ${JSON.stringify(event)}`);
            const body = JSON.parse(event.data!);
            received.push({
              position: Number(event.id),
              type: event.event!,
              threadId: body.threadId,
              messageId: body.data?.message?.id,
            });
            lastId = event.id;
            if (event.event === 'message.created' && body.data.message.content === SENTINEL) return received;
          }
        } finally {
          s.close();
        }
      }
    };

    let openCount = 0;
    let allOpen!: () => void;
    const streamsOpen = new Promise<void>((resolve) => {
      allOpen = resolve;
    });
    const opened = () => {
      if (++openCount === followers.length) allOpen();
    };
    const following = followers.map((f, i) => follow(f.user, i, opened));
    await streamsOpen;

    const created: { id: string; threadId: string }[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        const { id: threadId, authors } = threads[w % threads.length]!;
        const author = authors[Math.floor(w / threads.length) % authors.length]!;
        for (let k = 0; k < MESSAGES_PER_WRITER; k++) {
          const message = await ok(on(w), 'POST', `/api/v1/chat/threads/${threadId}/messages`, author.token, {
            content: `writer ${w}, message ${k}`,
          });
          created.push({ id: String(message.id), threadId });
        }
      }),
    );
    const last = await ok(on(1), 'POST', `/api/v1/chat/threads/${everyone}/messages`, owner!.token, {
      content: SENTINEL,
    });
    created.push({ id: String(last.id), threadId: everyone });
    expect(created).toHaveLength(WRITERS * MESSAGES_PER_WRITER + 1);

    const results = await Promise.all(following);
    for (const [i, { sees }] of followers.entries()) {
      const received = results[i]!;
      const context = `seed ${seed}, follower ${i}`;
      const positions = received.map((r) => r.position);
      for (let j = 1; j < positions.length; j++)
        expect(positions[j], context).toBeGreaterThan(positions[j - 1]!);
      expect(
        received.every((r) => r.threadId !== undefined && sees.has(r.threadId)),
        context,
      ).toBe(true);
      const messages = received.filter((r) => r.type === 'message.created').map((r) => r.messageId);
      const expected = created.filter((m) => sees.has(m.threadId)).map((m) => m.id);
      expect(messages.length, context).toBe(new Set(messages).size);
      expect(new Set(messages), context).toEqual(new Set(expected));
    }
  }, 180_000);
});
