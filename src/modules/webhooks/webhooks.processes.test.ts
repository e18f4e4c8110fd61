import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../../test/helpers/database.ts';
import { type ServerProcess, startServer, stopServer } from '../../../test/helpers/server-process.ts';
import { openDatabase } from '../../db/client.ts';
import { type EventInput, EventLog } from '../../events/event-log.ts';
import { systemClock } from '../../shared/clock.ts';
import { fanOutEvents } from './deliveries.repository.ts';
import { Receiver } from './fixtures/receiver.ts';
import {
  allDeliveries,
  ownerWithEndpoint,
  recordTestEvents,
  webhookServerEnv,
} from './fixtures/server-api.ts';

const EVENTS = 300;
const started = new Set<ServerProcess>();
let dataDirs: string[] = [];
let env: Record<string, string> = {};
let databaseUrl = '';
const receiver = new Receiver();

// Processes share one database only on PostgreSQL (an embedded database belongs to one process).
describe.runIf(process.env.DATABASE_URL)('two server processes on one database', () => {
  beforeAll(async () => {
    const database = await cloneDatabase();
    await database.close();
    databaseUrl = database.url!;
    // Both processes sign and unseal with the same service secrets, as a deployment's replicas do. Their
    // queues and readers of the log look for work every 10 minutes only: what arrives sooner was woken by
    // a notice from another process.
    env = webhookServerEnv({
      DATABASE_URL: databaseUrl,
      TOKEN_SECRET: randomBytes(32).toString('hex'),
      URL_SIGNING_SECRET: randomBytes(32).toString('hex'),
      JOBS_POLL_INTERVAL_MS: '600000',
    });
    await receiver.start();
  });

  afterAll(async () => {
    for (const server of started) server.child.kill('SIGKILL');
    await receiver.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** What `check` answers once it answers something, asking every 100 ms for at most 30 s. */
  async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
    for (let tries = 0; tries < 300; tries++) {
      const value = await check();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('condition not met in 30 s');
  }

  async function start(): Promise<ServerProcess> {
    const dataDir = mkdtempSync(join(tmpdir(), 'tmw-webhooks-'));
    dataDirs = [...dataDirs, dataDir];
    const server = await startServer({ ...env, DATA_DIR: dataDir }, 60_000);
    started.add(server);
    return server;
  }

  it('sends each attempt of each event exactly once between them, retries included', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    // Every event fails once, so each is sent twice: attempt 1 (500) and attempt 2, 5 s later (200).
    const arrivals = new Map<string, number>();
    receiver.respond((request) => {
      const id = String(request.headers['webhook-id']);
      const seen = (arrivals.get(id) ?? 0) + 1;
      arrivals.set(id, seen);
      return { status: seen === 1 ? 500 : 200 };
    });
    const owner = await ownerWithEndpoint(a!, receiver.url);
    const ids = await recordTestEvents([a!, b!], owner.token, owner.endpointId, EVENTS);
    expect(new Set(ids).size).toBe(EVENTS);

    await receiver.waitFor(2 * EVENTS);
    // Every attempt recorded: 300 failed first attempts, 300 successful second ones, nothing pending.
    const settled = await until(async () => {
      const rows = await allDeliveries(a!, owner.token, owner.endpointId);
      return rows.every((d) => d.status !== 'pending') ? rows : undefined;
    });
    expect(settled).toHaveLength(2 * EVENTS);
    expect(settled.filter((d) => d.status === 'succeeded' && d.attempt === 2)).toHaveLength(EVENTS);
    // A copy sent by the other process would travel alongside the original: give stragglers a moment.
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    expect(receiver.received).toHaveLength(2 * EVENTS);
    expect([...arrivals.keys()].sort()).toEqual([...ids].sort());
    expect([...arrivals.values()].every((count) => count === 2)).toBe(true);
    const webhook = new Webhook(owner.secret);
    for (const request of receiver.received.slice(0, 20)) {
      expect(webhook.verify(request.body, request.headers as Record<string, string>)).toMatchObject({
        type: 'webhook.test',
      });
    }
    expect(await stopServer(a!, 'SIGTERM')).toBe(0);
    expect(await stopServer(b!, 'SIGTERM')).toBe(0);
  }, 120_000);

  it('wakes at once on what another process commits: an event to fan out, an attempt to send', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    receiver.received.length = 0;
    receiver.respond(200);
    const owner = await ownerWithEndpoint(a!, receiver.url);
    const testEvent = (message: string): EventInput => ({
      type: 'webhook.test',
      subject: { type: 'webhook_endpoint', id: owner.endpointId },
      teamId: owner.teamId,
      payload: { endpointId: owner.endpointId, message },
    });
    const arrived = (id: string) =>
      until(async () => (receiver.received.some((r) => r.headers['webhook-id'] === id) ? true : undefined));
    // Written by this process, neither server: their polls are 10 minutes apart.
    const database = await openDatabase({ databaseUrl, dataDir: '' });
    try {
      const log = new EventLog(systemClock);
      // An event of the log: a server's reader is woken by the commit's notice and fans it out.
      const [logged] = await log.record(database.db, testEvent('fanned out by a server'));
      await arrived(logged!.id);
      // An attempt fanned out here, with its run: a server's queue is woken by the notice of the new job.
      const [queued] = await database.db.transaction(async (tx) => {
        const events = await log.record(tx, testEvent('fanned out by another process'));
        await fanOutEvents(tx, [events[0]!.id], systemClock.now());
        return events;
      });
      await arrived(queued!.id);
    } finally {
      await database.close();
    }
    expect(await stopServer(a!, 'SIGTERM')).toBe(0);
    expect(await stopServer(b!, 'SIGTERM')).toBe(0);
  }, 120_000);
});
