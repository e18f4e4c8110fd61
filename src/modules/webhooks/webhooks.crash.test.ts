import { rmSync } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newDataDir } from '../../../test/helpers/data-dir.ts';
import { cloneDatabase } from '../../../test/helpers/database.ts';
import { type ServerProcess, startServer, stopServer } from '../../../test/helpers/server-process.ts';
import { openDatabase } from '../../db/client.ts';
import { domainEvents, eventConsumers } from '../../db/schema/index.ts';
import { EventLog } from '../../events/event-log.ts';
import { lastPosition } from '../../events/events.repository.ts';
import { deferred } from '../../jobs/test-jobs.ts';
import { systemClock } from '../../shared/clock.ts';
import { ATTEMPTS_PER_BATCH } from './delivery.ts';
import { Receiver } from './fixtures/receiver.ts';
import {
  allDeliveries,
  call,
  ownerWithEndpoint,
  recordTestEvents,
  webhookServerEnv,
} from './fixtures/server-api.ts';

const EVENTS = 400;
/** Tracks created beside the test events: catalogue events (track.created, version.created) go the same way. */
const TRACKS = 40;
/** Events committed while no process reads the log: what a kill between a commit and its fan-out leaves. */
const UNREAD = 50;

// The real process on a data directory (PGlite) or a private PostgreSQL database.
let dataDir: string;
let env: Record<string, string>;
const started = new Set<ServerProcess>();
const receiver = new Receiver();

beforeAll(async () => {
  dataDir = await newDataDir('tmw-webhooks-crash-');
  env = webhookServerEnv({ DATA_DIR: dataDir });
  if (process.env.DATABASE_URL) {
    const database = await cloneDatabase();
    await database.close();
    env.DATABASE_URL = database.url!;
  }
  await receiver.start();
});

afterAll(async () => {
  for (const server of started) server.child.kill('SIGKILL');
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<ServerProcess> {
  const server = await startServer(env, 60_000);
  started.add(server);
  server.child.once('exit', () => started.delete(server));
  return server;
}

const CATALOGUE_TYPES = ['track.created', 'version.created'];

/** Creates `count` tracks through the API, a few at a time. */
async function createTracks(server: ServerProcess, owner: { token: string; teamId: number }, count: number) {
  for (let i = 0; i < count; i += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, count - i) }, async (_, j) => {
        const res = await call(server, 'POST', '/api/v1/tracks/', owner.token, {
          title: `Crash ${i + j}`,
          team_id: owner.teamId,
          audio_file_name: 'take.wav',
        });
        if (res.status >= 300) throw new Error(`track: ${res.status} ${JSON.stringify(res.body)}`);
      }),
    );
  }
}

const distinctIds = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));

/**
 * Records `count` test events and as many catalogue events for the endpoint's team straight into the database of
 * the stopped service, committed with no reader of the log running: the state a process killed between an
 * event's commit and its fan-out leaves. Answers their ids, after checking the webhooks reader has not passed
 * them, and the ids of the catalogue events the API recorded before.
 */
async function commitUnread(owner: { teamId: number; endpointId: number }, count: number) {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
  try {
    const catalogue = await database.db
      .select({ id: domainEvents.id })
      .from(domainEvents)
      .where(and(eq(domainEvents.teamId, owner.teamId), inArray(domainEvents.type, CATALOGUE_TYPES)));
    const events = await new EventLog(systemClock).record(database.db, [
      ...Array.from({ length: count }, () => ({
        type: 'webhook.test',
        subject: { type: 'webhook_endpoint', id: owner.endpointId },
        teamId: owner.teamId,
        payload: { endpointId: owner.endpointId, message: 'committed, not yet fanned out' },
      })),
      ...Array.from({ length: count }, (_, i) => ({
        type: 'track.updated',
        subject: { type: 'track', id: i + 1 },
        teamId: owner.teamId,
        payload: { trackId: i + 1, teamId: owner.teamId, changes: { title: `Renamed ${i}` } },
      })),
    ]);
    const [reader] = await database.db
      .select()
      .from(eventConsumers)
      .where(eq(eventConsumers.name, 'webhooks'));
    expect(reader!.position).toBeLessThan(await lastPosition(database.db));
    return { unread: events.map((e) => e.id), catalogue: catalogue.map((e) => e.id) };
  } finally {
    await database.close();
  }
}

it('delivers every event at least once although the process is killed in the middle of delivering them', async () => {
  const first = await start();
  const owner = await ownerWithEndpoint(first, receiver.url);
  // Answers wait (at most 5 s, well within the 10 s timeout) until every event is recorded, so that the
  // kill below lands in the middle of the deliveries.
  const recorded = deferred();
  const hold = () => Promise.race([recorded.promise, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  receiver.respond(async () => {
    await hold();
    return { status: 200 };
  });
  const [ids] = await Promise.all([
    recordTestEvents([first], owner.token, owner.endpointId, EVENTS),
    createTracks(first, owner, TRACKS),
  ]);
  expect(new Set(ids).size).toBe(EVENTS);
  recorded.resolve();

  await receiver.waitFor(EVENTS / 4);
  expect(await stopServer(first, 'SIGKILL')).toBeNull();
  const beforeCrash = distinctIds().size;
  expect(beforeCrash).toBeLessThan(EVENTS);
  const { unread, catalogue } = await commitUnread(owner, UNREAD);
  // Each track recorded its creation and its first version's.
  expect(catalogue.length).toBeGreaterThanOrEqual(TRACKS);
  const all = [...ids, ...catalogue, ...unread];

  // The new process fans out what the log holds past the reader's position, sends the queued attempts at once
  // and, once its lease expires, the batch the dead process was sending.
  const second = await start();
  const deadline = Date.now() + 60_000;
  while (distinctIds().size < all.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect([...distinctIds()].sort()).toEqual([...all].sort());
  // At least once: only what was in flight when the process died (one batch of the endpoint) went out twice.
  expect(receiver.received.length - all.length).toBeLessThanOrEqual(ATTEMPTS_PER_BATCH);

  let attempts = await allDeliveries(second, owner.token, owner.endpointId);
  while (attempts.some((a) => a.status === 'pending') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    attempts = await allDeliveries(second, owner.token, owner.endpointId);
  }
  expect(attempts).toHaveLength(all.length);
  expect(attempts.every((a) => a.attempt === 1 && a.status === 'succeeded')).toBe(true);
  expect(await stopServer(second, 'SIGTERM')).toBe(0);
  process.stdout.write(
    `webhooks crash: ${beforeCrash} of ${EVENTS} events delivered before the kill, ` +
      `${receiver.received.length - all.length} sent twice\n`,
  );
}, 180_000);
