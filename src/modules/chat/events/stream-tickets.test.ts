import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import type { App } from '../../../app-types.ts';
import { streamTickets } from '../../../db/schema/index.ts';
import { sha256 } from '../../../shared/hash.ts';
import { buildSecondApp } from '../../auth/fixtures/second-app.ts';
import { chatHelpers } from '../chat.test-support.ts';
import { openSse } from '../fixtures/sse-client.ts';

const ctx = useTestContext();
const { newThread, post } = chatHelpers(ctx);

let base = '';
let team: TestTeam;
let appB: App;
let baseB = '';

beforeAll(async () => {
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  team = await ctx.newTeam();
  appB = await buildSecondApp(ctx);
  baseB = await appB.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await appB?.close();
  // fetch may leave a connection it opened (after an aborted stream) without a request on it; the server
  // would wait out its headers timeout for it before closing.
  ctx.app.server.closeAllConnections();
});

const askTicket = (token: string | undefined) =>
  ctx.request({ method: 'POST', url: '/api/v1/chat/events/ticket', token });

async function ticketOf(token: string): Promise<string> {
  const res = await askTicket(token);
  expect(res.statusCode).toBe(201);
  return res.json().ticket;
}

/** Opens the stream with the ticket and no Authorization header: the status, and the stream when opened. */
async function openWith(ticket: string, origin = base) {
  const stream = await openSse(`${origin}/api/v1/chat/events?ticket=${encodeURIComponent(ticket)}`, '');
  if (stream.status !== 200) stream.close();
  return stream;
}

describe('stream tickets', () => {
  it('are given to a session: random, valid 60 seconds, stored only as a hash', async () => {
    const res = await askTicket(team.owner.token);
    expect(res.statusCode).toBe(201);
    const { ticket, expiresAt } = res.json();
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const rows = await ctx.database.db
      .select()
      .from(streamTickets)
      .where(eq(streamTickets.userId, team.owner.id));
    expect(rows.map((r) => r.tokenHash)).toContain(sha256(ticket));
    expect(JSON.stringify(rows)).not.toContain(ticket);
  });

  it('are refused to API keys (the stream is session-only) and to anonymous callers', async () => {
    const key = await ctx.newApiKey(team);
    const byKey = await askTicket(key);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('session_required');
    expect((await askTicket(undefined)).statusCode).toBe(401);
  });

  it('open the chat event stream without a bearer token, once', async () => {
    const thread = await newThread(team);
    const ticket = await ticketOf(team.owner.token);
    const stream = await openWith(ticket);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await post(thread.id, team.owner, 'through a ticket');
      const event = await stream.next((e) => e.event === 'message.created');
      expect(JSON.parse(event.data!).data.message.content).toBe('through a ticket');
    } finally {
      stream.close();
    }
    const again = await openWith(ticket);
    expect(again.status).toBe(401);
    expect(again.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('work on another process over the same database', async () => {
    const ticket = await ticketOf(team.owner.token);
    const stream = await openWith(ticket, baseB);
    stream.close();
    expect(stream.status).toBe(200);
  });

  it('open nothing once expired, for another stream, unknown, or after the session ended', async () => {
    const expired = await ticketOf(team.owner.token);
    await ctx.database.db
      .update(streamTickets)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(streamTickets.tokenHash, sha256(expired)));
    expect((await openWith(expired)).status).toBe(401);
    expect((await openWith('x'.repeat(43))).status).toBe(401);
    expect((await openWith('short')).status).toBe(401);

    const user = await ctx.newUser();
    const ticket = await ticketOf(user.token);
    await ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token: user.token });
    expect((await openWith(ticket)).status).toBe(401);
  });

  it('stand in only for a missing Authorization header, never beside a bad one', async () => {
    const ticket = await ticketOf(team.owner.token);
    const res = await fetch(`${base}/api/v1/chat/events?ticket=${ticket}`, {
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(res.status).toBe(401);
    await res.text();
    // The ticket was not used up by that request.
    const stream = await openWith(ticket);
    stream.close();
    expect(stream.status).toBe(200);
  });

  it('are not accepted by other routes', async () => {
    const ticket = await ticketOf(team.owner.token);
    const res = await ctx.request({ method: 'GET', url: `/api/v1/auth/me?ticket=${ticket}` });
    expect(res.statusCode).toBe(401);
  });
});
