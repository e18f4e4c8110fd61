import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newDataDir } from '../../../test/helpers/data-dir.ts';
import { cloneDatabase } from '../../../test/helpers/database.ts';
import { type ServerProcess, startServer, stopServer } from '../../../test/helpers/server-process.ts';
import { deferred } from '../../jobs/test-jobs.ts';
import { Receiver } from './fixtures/receiver.ts';
import {
  allDeliveries,
  ownerWithEndpoint,
  recordTestEvents,
  webhookServerEnv,
} from './fixtures/server-api.ts';
import { DELIVERY_CONCURRENCY } from './webhooks.services.ts';

const EVENTS = 400;

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

const distinctIds = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));

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
  const ids = await recordTestEvents([first], owner.token, owner.endpointId, EVENTS);
  expect(new Set(ids).size).toBe(EVENTS);
  recorded.resolve();

  await receiver.waitFor(EVENTS / 4);
  expect(await stopServer(first, 'SIGKILL')).toBeNull();
  const beforeCrash = distinctIds().size;
  expect(beforeCrash).toBeLessThan(EVENTS);

  // The new process takes over the queued deliveries at once and, once their leases expire, the
  // deliveries and fan-outs the dead process held.
  const second = await start();
  const deadline = Date.now() + 60_000;
  while (distinctIds().size < EVENTS && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect([...distinctIds()].sort()).toEqual([...ids].sort());
  // At least once: only what was in flight when the process died went out twice.
  expect(receiver.received.length - EVENTS).toBeLessThanOrEqual(DELIVERY_CONCURRENCY);

  let attempts = await allDeliveries(second, owner.token, owner.endpointId);
  while (attempts.some((a) => a.status === 'pending') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    attempts = await allDeliveries(second, owner.token, owner.endpointId);
  }
  expect(attempts).toHaveLength(EVENTS);
  expect(attempts.every((a) => a.attempt === 1 && a.status === 'succeeded')).toBe(true);
  expect(await stopServer(second, 'SIGTERM')).toBe(0);
  process.stdout.write(
    `webhooks crash: ${beforeCrash} of ${EVENTS} events delivered before the kill, ` +
      `${receiver.received.length - EVENTS} sent twice\n`,
  );
}, 180_000);
