import { and, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { TestClock, type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { domainEvents, jobs, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import type { EventInput } from '../../events/event-log.ts';
import { insertJob } from '../../jobs/jobs.repository.ts';
import { DELIVER_JOB, fanOutEvents } from './deliveries.repository.ts';
import { deliverWebhooks } from './fixtures/deliver.ts';
import { type CreatedEndpoint, newEndpoint } from './fixtures/endpoints.ts';
import { useQueueReceiver } from './fixtures/queue-receiver.ts';
import type { Received } from './fixtures/receiver.ts';
import { RETRY_DELAYS_MS } from './retry-schedule.ts';

const clock = new TestClock(Date.parse('2025-06-01T12:00:00.000Z'));
const ctx = useTestContext({ clock, env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' } });
const receiver = useQueueReceiver(ctx);

const runJobs = () => deliverWebhooks(ctx);

/** Records one event of the log in its own transaction; answers its id. */
async function record(event: EventInput): Promise<string> {
  const [recorded] = await ctx.database.db.transaction((tx) => ctx.app.services.events.record(tx, event));
  return recorded!.id;
}

const booking = (teamId: number): EventInput => ({
  type: 'booking.created',
  subject: { type: 'session', id: 1 },
  teamId,
  payload: { id: 1 },
});

/** Verifies a delivery with the Standard Webhooks library, on a receiver whose clock reads `at`. */
function verify(secret: string, request: Received, at = clock.now()): unknown {
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

/** A team and a key of it: tests move the clock by days, past any session's lifetime, and keys do not expire. */
async function newTeam(): Promise<TestTeam & { key: string }> {
  const team = await ctx.newTeam();
  return { ...team, key: await ctx.newApiKey(team, ['webhooks:write']) };
}

type KeyedTeam = Awaited<ReturnType<typeof newTeam>>;

async function endpointFor(team: TestTeam, body: { eventTypes?: string[]; path?: string } = {}) {
  return newEndpoint(ctx, team, {
    url: `${receiver.url}${body.path ?? ''}`,
    ...(body.eventTypes ? { eventTypes: body.eventTypes } : {}),
  });
}

async function sendTest(team: KeyedTeam, endpoint: CreatedEndpoint): Promise<string> {
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v1/webhooks/${endpoint.id}/test`,
    token: team.key,
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().id;
}

async function deliveries(team: KeyedTeam, endpoint: CreatedEndpoint, query = '') {
  const res = await ctx.request({
    method: 'GET',
    url: `/api/v1/webhooks/${endpoint.id}/deliveries${query}`,
    token: team.key,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Record<string, unknown>[]; nextCursor: string | null };
}

async function endpointRow(id: number) {
  const [row] = await ctx.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row!;
}

const seconds = (date: Date) => String(Math.floor(date.getTime() / 1000));

describe('a delivery', () => {
  it('is signed as in Standard Webhooks and verified by its library; the attempt is logged', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    const eventId = await sendTest(team, endpoint);
    expect(await runJobs()).toBe(1); // the endpoint's run

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': eventId,
      'webhook-timestamp': seconds(clock.now()),
    });
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verify(endpoint.secret, request!)).toEqual({
      type: 'webhook.test',
      timestamp: clock.now().toISOString(),
      data: { endpointId: endpoint.id, message: expect.any(String) },
    });
    // A forged body or another secret does not verify.
    expect(() =>
      verify(endpoint.secret, { ...request!, body: request!.body.replace('test', 'tset') }),
    ).toThrow();
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, request!)).toThrow();

    const log = await deliveries(team, endpoint);
    expect(log).toEqual({
      items: [
        {
          id: expect.any(Number),
          eventId,
          eventType: 'webhook.test',
          attempt: 1,
          status: 'succeeded',
          responseStatus: 200,
          durationMs: expect.any(Number),
          error: null,
          createdAt: clock.now().toISOString(),
          nextAttemptAt: null,
        },
      ],
      nextCursor: null,
    });
  });

  it('goes, for a test event, to its endpoint alone whatever the event types', async () => {
    const team = await newTeam();
    const target = await endpointFor(team, { eventTypes: ['booking.created'], path: '/target' });
    const everything = await endpointFor(team, { path: '/everything' });
    await sendTest(team, target);
    await runJobs();
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook/target']);
    expect((await deliveries(team, everything)).items).toEqual([]);
  });

  it('carries both signatures while a rotated-out secret lasts, then the new one alone', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    const rotated = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: team.key,
      payload: { rotateSecret: true },
    });
    const newSecret = rotated.json().secret as string;
    await sendTest(team, endpoint);
    await runJobs();
    const during = receiver.received[0]!;
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    // Receivers on either secret accept it.
    expect(verify(newSecret, during)).toMatchObject({ type: 'webhook.test' });
    expect(verify(endpoint.secret, during)).toMatchObject({ type: 'webhook.test' });
    // The new signature comes first.
    expect(
      verify(newSecret, { ...during, headers: { ...during.headers, 'webhook-signature': signatures[0] } }),
    ).toBeTruthy();

    clock.advance(24 * 60 * 60 * 1000);
    await sendTest(team, endpoint);
    await runJobs();
    const after = receiver.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(newSecret, after)).toMatchObject({ type: 'webhook.test' });
    expect(() => verify(endpoint.secret, after)).toThrow('No matching signature');
  });

  it('is not sent again by a job that runs again after its attempt was recorded', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    const eventId = await sendTest(team, endpoint);
    await runJobs();
    expect(receiver.received).toHaveLength(1);
    const [attempt] = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, eventId));
    expect(attempt).toMatchObject({ status: 'succeeded' });
    // What a reader that died before moving its position, and a run claimed again after a crash, would do.
    const now = clock.now();
    await fanOutEvents(ctx.database.db, [eventId], now);
    await insertJob(ctx.database.db, {
      type: DELIVER_JOB,
      payload: { endpointId: endpoint.id },
      runAt: now,
      dedupeKey: undefined,
      now,
    });
    expect(await runJobs()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(team, endpoint)).items).toHaveLength(1);
  });
});

describe('failures', () => {
  it('retries 5 s after a failure with the same webhook-id, and a success clears failingSince', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    receiver.respond((_request, index) => ({ status: index === 0 ? 500 : 200 }));
    const started = clock.now();
    const eventId = await sendTest(team, endpoint);
    await runJobs();
    expect(receiver.received).toHaveLength(1);
    expect((await endpointRow(endpoint.id)).failingSince).toEqual(started);

    clock.advance(RETRY_DELAYS_MS[0] - 1);
    expect(await runJobs()).toBe(0);
    clock.advance(1);
    expect(await runJobs()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.headers['webhook-timestamp']).toBe(seconds(clock.now()));
    expect(verify(endpoint.secret, second!)).toMatchObject({ type: 'webhook.test' });

    const log = await deliveries(team, endpoint);
    expect(log.items).toEqual([
      expect.objectContaining({
        eventId,
        attempt: 2,
        status: 'succeeded',
        responseStatus: 200,
        error: null,
        createdAt: started.toISOString(),
        nextAttemptAt: null,
      }),
      expect.objectContaining({
        eventId,
        attempt: 1,
        status: 'failed',
        responseStatus: 500,
        error: 'HTTP 500',
        createdAt: started.toISOString(),
        nextAttemptAt: new Date(started.getTime() + 5_000).toISOString(),
      }),
    ]);
    expect((await endpointRow(endpoint.id)).failingSince).toBeNull();
  });

  it('follows the whole schedule, 8 attempts, then gives up; after 5 days of failures the endpoint is disabled', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    receiver.respond(503);
    const started = clock.now();
    await sendTest(team, endpoint);
    await runJobs();
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay - 1);
      expect(await runJobs()).toBe(0);
      clock.advance(1);
      expect(await runJobs()).toBe(1);
    }
    expect(receiver.received).toHaveLength(8);
    const attempts = (await deliveries(team, endpoint)).items.reverse();
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(attempts.every((a) => a.status === 'failed' && a.responseStatus === 503)).toBe(true);
    let due = started.getTime();
    for (const [index, attempt] of attempts.entries()) {
      const delay = RETRY_DELAYS_MS[index];
      due += delay ?? 0;
      expect(attempt.nextAttemptAt, `attempt ${index + 1}`).toBe(
        delay === undefined ? null : new Date(due).toISOString(),
      );
    }
    clock.advance(30 * 24 * 60 * 60 * 1000 - (clock.now().getTime() - started.getTime()));
    // Thirty days on, nothing is left to send for that event; the endpoint has been failing since the start.
    expect(await runJobs()).toBe(0);
    expect((await endpointRow(endpoint.id)).failingSince).toEqual(started);

    await sendTest(team, endpoint);
    await runJobs();
    const disabled = await endpointRow(endpoint.id);
    expect(disabled).toMatchObject({ enabled: false, disabledAt: clock.now(), failingSince: started });
    const latest = (await deliveries(team, endpoint, '?limit=1')).items[0];
    expect(latest).toMatchObject({ attempt: 1, status: 'failed', nextAttemptAt: null });
    // Nothing more is fanned out to it.
    await record(booking(team.id));
    await runJobs();
    expect(receiver.received).toHaveLength(9);
  });

  it('disables an endpoint that has failed for exactly 5 days, not a moment earlier', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    receiver.respond(500);
    const started = clock.now();
    await sendTest(team, endpoint);
    await runJobs();
    const fiveDays = 5 * 24 * 60 * 60 * 1000;
    clock.advance(fiveDays - 1);
    await sendTest(team, endpoint);
    await runJobs();
    expect((await endpointRow(endpoint.id)).enabled).toBe(true);
    clock.advance(1);
    await sendTest(team, endpoint);
    await runJobs();
    expect(await endpointRow(endpoint.id)).toMatchObject({
      enabled: false,
      disabledAt: new Date(started.getTime() + fiveDays),
    });
    // A success in between would have started the count again: re-enabling clears it.
    const on = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: team.key,
      payload: { enabled: true },
    });
    expect(on.json()).toMatchObject({ enabled: true, failingSince: null, disabledAt: null });
  });

  it('does not send the pending retries of an endpoint disabled meanwhile', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    receiver.respond(500);
    await sendTest(team, endpoint);
    await runJobs();
    await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: team.key,
      payload: { enabled: false },
    });
    clock.advance(RETRY_DELAYS_MS[0]);
    expect(await runJobs()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [latest] = (await deliveries(team, endpoint)).items;
    expect(latest).toMatchObject({
      attempt: 2,
      status: 'failed',
      error: 'not sent: the endpoint is disabled',
      nextAttemptAt: null,
    });
  });

  it('fails on a redirect without following it', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    receiver.respond((_request, index) =>
      index === 0 ? { status: 307, headers: { location: `${receiver.url}/elsewhere` } } : { status: 200 },
    );
    await sendTest(team, endpoint);
    await runJobs();
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
    const attempt = (await deliveries(team, endpoint)).items.find((a) => a.attempt === 1);
    expect(attempt).toMatchObject({
      status: 'failed',
      responseStatus: 307,
      error: 'redirect (HTTP 307) not followed',
    });
  });
});

describe('the log of attempts', () => {
  it('pages newest first and narrows to one event', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    // Delivered one after the other, so the attempts are made in the order of the events.
    const events: string[] = [];
    for (let i = 0; i < 3; i++) {
      events.push(await sendTest(team, endpoint));
      await runJobs();
    }
    const first = await deliveries(team, endpoint, '?limit=2');
    expect(first.items.map((d) => d.eventId)).toEqual([events[2], events[1]]);
    const second = await deliveries(team, endpoint, `?limit=2&cursor=${first.nextCursor}`);
    expect(second).toEqual({ items: [expect.objectContaining({ eventId: events[0] })], nextCursor: null });
    const one = await deliveries(team, endpoint, `?eventId=${events[1]}`);
    expect(one.items.map((d) => d.eventId)).toEqual([events[1]]);
    // A cursor of one list is not accepted by another.
    const mixed = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/${endpoint.id}/deliveries?limit=2&eventId=${events[0]}&cursor=${first.nextCursor}`,
      token: team.key,
    });
    expect(mixed.statusCode).toBe(400);
  });
});

describe('events from a write path', () => {
  const entry = (teamId: number) => ({
    id: 7,
    teamId,
    isIncome: true,
    amount: 99.5,
    currency: 'EUR',
    occurredOn: '2025-06-01',
    category: 'Royalties',
    description: null,
    contactId: null,
    status: 'confirmed',
    createdAt: clock.now().toISOString(),
    updatedAt: clock.now().toISOString(),
  });

  it('delivers an event committed with its change to every subscribed endpoint of the team, and nothing rolled back', async () => {
    const team = await newTeam();
    const other = await ctx.newTeam();
    const money = await endpointFor(team, { eventTypes: ['financial.entry.created'], path: '/money' });
    await endpointFor(team, { path: '/all' });
    await endpointFor(team, { eventTypes: ['booking.created'], path: '/bookings' });
    await endpointFor(other, { path: '/other-team' });

    const db = ctx.database.db;
    const created: EventInput = {
      type: 'financial.entry.created',
      subject: { type: 'financial_entry', id: 7 },
      teamId: team.id,
      payload: entry(team.id),
    };
    await expect(
      db.transaction(async (tx) => {
        await ctx.app.services.events.record(tx, created);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await db.select().from(domainEvents).where(eq(domainEvents.teamId, team.id))).toEqual([]);
    expect(await runJobs()).toBe(0);
    expect(await db.select().from(jobs).where(eq(jobs.type, DELIVER_JOB))).toEqual([]);
    expect(receiver.received).toEqual([]);

    const eventId = await record(created);
    await runJobs();
    expect(receiver.received.map((r) => r.path).sort()).toEqual(['/hook/all', '/hook/money']);
    for (const request of receiver.received) {
      expect(request.headers['webhook-id']).toBe(eventId);
      expect(JSON.parse(request.body)).toEqual({
        type: 'financial.entry.created',
        timestamp: clock.now().toISOString(),
        data: entry(team.id),
      });
    }
    expect(verify(money.secret, receiver.received.find((r) => r.path === '/hook/money')!)).toMatchObject({
      data: { amount: 99.5 },
    });
  });

  it('fans an event out once however often its fan-out runs', async () => {
    const team = await newTeam();
    await endpointFor(team);
    const db = ctx.database.db;
    const eventId = await record(booking(team.id));
    await ctx.app.services.eventConsumers.drain();
    await fanOutEvents(db, [eventId], clock.now());
    await runJobs();
    const rows = await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, eventId)));
    expect(rows).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('retention', () => {
  it('removes settled attempts past WEBHOOK_DELIVERY_RETENTION_DAYS, never a pending one, and their events after them', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    const delivered = await sendTest(team, endpoint);
    await runJobs();
    receiver.respond(500);
    const retried = await sendTest(team, endpoint);
    await runJobs();
    const rowsOf = (eventId: string) =>
      ctx.database.db
        .select({ attempt: webhookDeliveries.attempt, status: webhookDeliveries.status })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventId, eventId))
        .orderBy(webhookDeliveries.attempt);
    expect(await rowsOf(retried)).toEqual([
      { attempt: 1, status: 'failed' },
      { attempt: 2, status: 'pending' },
    ]);

    // Past both retentions (30 days by default); the pending retry waits for its run.
    clock.advance(31 * 24 * 60 * 60 * 1000);
    await ctx.app.services.eventConsumers.drain();
    // Two runs of the recurring cleanups: an event goes in the run after its attempts did.
    await ctx.app.services.jobs.runDue();
    clock.advance(15 * 60 * 1000);
    await ctx.app.services.jobs.runDue();
    expect(await rowsOf(delivered)).toEqual([]);
    expect(await rowsOf(retried)).toEqual([{ attempt: 2, status: 'pending' }]);
    const eventIds = (
      await ctx.database.db
        .select({ id: domainEvents.id })
        .from(domainEvents)
        .where(eq(domainEvents.teamId, team.id))
    ).map((e) => e.id);
    // The delivered event went once its attempts had; the retried one stays with its pending attempt.
    expect(eventIds).toEqual([retried]);

    receiver.respond(200);
    await runJobs();
    expect(await rowsOf(retried)).toEqual([{ attempt: 2, status: 'succeeded' }]);
    expect(receiver.received.at(-1)?.headers['webhook-id']).toBe(retried);
  });
});

describe('a deleted team', () => {
  it('takes its events and their delivery attempts with it', async () => {
    const team = await newTeam();
    const endpoint = await endpointFor(team);
    const eventId = await sendTest(team, endpoint);
    await runJobs();
    const db = ctx.database.db;
    await db.execute(sql`delete from teams where id = ${team.id}`);
    expect(await db.select().from(domainEvents).where(eq(domainEvents.id, eventId))).toEqual([]);
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId))).toEqual(
      [],
    );
  });
});
