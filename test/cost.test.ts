import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { openPglite } from '../src/db/pglite-client.ts';
import { teams } from '../src/db/schema/index.ts';
import { SCOPES } from '../src/plugins/auth.ts';
import { expensiveValue, FILLERS, type Ids, idKind } from './cost/expensive-value.ts';
import { type OpenApiDocument, type Operation, operationsOf } from './fuzz/operations.ts';
import { albumHelpers } from './helpers/albums.ts';
import { createTestContext, TEST_SECRETS } from './helpers/context.ts';
import { newDataDir } from './helpers/data-dir.ts';
import { cloneDatabase } from './helpers/database.ts';
import { HealthProbe, type ProbeSample, type RssSample } from './helpers/health-probe.ts';
import { type ServerProcess, startServer, stopServer } from './helpers/server-process.ts';

/**
 * Every documented operation gets its most expensive valid inputs (see `cost/expensive-value.ts`: strings
 * at `maxLength` of whitespace runs, newlines, punctuation and repeated words; arrays at `maxItems`; bodies
 * up to the 1 MiB body limit), one of each filler where they differ, sent to a real process of the service, while a probe
 * calls `GET /api/v1/health` every 50 ms from a worker. An operation fails the run when a probe call made
 * while it ran waited longer than `PROBE_WAIT_BOUND_MS`; the run fails when the process's resident memory
 * grows more than `RSS_GROWTH_BOUND_MB` over what it held once started.
 */

/** The longest a health call may wait while an expensive request runs: stalls, not jitter, go past it. */
const PROBE_WAIT_BOUND_MS = 250;
/**
 * Growth of the process's resident memory over the whole run, from its reading before the first
 * operation. Measured: 96-148 MB on the embedded database, 167 MB on PostgreSQL (the heap growing to take
 * imports of about 11 MB of JSON); a buffer kept per request, or a decoded file held whole, goes far past it.
 */
const RSS_GROWTH_BOUND_MB = 250;
/** A request not answered by then counts as a stall of that length. */
const REQUEST_TIMEOUT_MS = 8_000;
/** A process whose probe waits this long after a request is stalled for good: it is killed and started again. */
const STALLED_MS = 4_000;

type Finding = { operation: string; probeMs: number; statuses: number[] };

let dataDir: string;
let env: Record<string, string>;
let server: ServerProcess;
let probe: HealthProbe;
let ids: Ids;
let token: string;

/** The run's data, made through the service's own code before the process starts on the same database. */
async function setUp(database: Database): Promise<{ ids: Ids; token: string }> {
  const ctx = await createTestContext({ database, env: { DATA_DIR: dataDir } });
  try {
    const team = await ctx.newTeam();
    // Keys and members of a free team would spend the run answering 429.
    await ctx.database.db.update(teams).set({ planId: 'label' }).where(eq(teams.id, team.id));
    const member = await ctx.addMember(team, 'member');
    const track = await ctx.newTrack(team);
    const album = await albumHelpers(ctx).newAlbum(team);
    await ctx.newApiKey(team, [...SCOPES]);
    const opened = await ctx.request({
      method: 'POST',
      url: '/api/v1/chat/bots/assistant/open',
      token: team.owner.token,
      payload: { teamId: team.id },
    });
    const thread = opened.json() as { id?: number; threadId?: number };
    return {
      token: team.owner.token,
      ids: {
        team: team.id,
        track: track.id,
        version: track.versionId,
        album: album.id,
        user: member.id,
        member: member.id,
        thread: thread.threadId ?? thread.id ?? 1,
        bot: 'assistant',
      },
    };
  } finally {
    await ctx.close();
  }
}

async function start(): Promise<void> {
  server = await startServer(env, 60_000);
  probe = new HealthProbe(server.url, server.child.pid!);
}

async function restart(): Promise<void> {
  await probe.stop();
  await stopServer(server, 'SIGKILL');
  await start();
}

beforeAll(async () => {
  dataDir = await newDataDir('tmw-cost-');
  env = {
    DATA_DIR: dataDir,
    TOKEN_SECRET: TEST_SECRETS.tokenSecret,
    URL_SIGNING_SECRET: TEST_SECRETS.urlSigningSecret,
    // Every operation is measured doing its work, not answering 429 once one person's budget is spent.
    SESSION_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  let database: Database;
  if (process.env.DATABASE_URL) {
    const clone = await cloneDatabase();
    env.DATABASE_URL = clone.url!;
    database = clone;
  } else database = await openPglite(join(dataDir, 'pg'));
  ({ ids, token } = await setUp(database));
  await start();
}, 120_000);

afterAll(async () => {
  await probe?.stop();
  if (server) await stopServer(server, 'SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The URL of an operation with the run's ids in its path and every query parameter at its costliest. */
function urlOf(operation: Operation, variant: number): string {
  const segments = operation.path.split('/');
  const path = segments
    .map((segment, i) => {
      const name = /^\{(\w+)\}/.exec(segment)?.[1];
      if (!name) return segment;
      const kind = name === 'id' ? idKind(segments[i - 1] ?? '') : idKind(name);
      return segment.replace(`{${name}}`, encodeURIComponent(String(ids[kind] ?? 1)));
    })
    .join('/');
  const query = new URLSearchParams();
  for (const parameter of operation.parameters.filter((p) => p.in === 'query' && p.name !== 'cursor'))
    query.set(parameter.name, String(expensiveValue(parameter.schema, variant, ids, parameter.name)));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

type Input = { url: string; body: string | undefined };

/** The operation's costliest input of `variant`. */
function inputOf(operation: Operation, variant: number): Input {
  return {
    url: urlOf(operation, variant),
    body: operation.body
      ? JSON.stringify(expensiveValue(operation.body.schema ?? {}, variant, ids))
      : undefined,
  };
}

/** The distinct costliest inputs: an operation without free text gets the same one from every filler. */
function costliestInputs(operation: Operation): Input[] {
  const inputs = new Map<string, Input>();
  for (let variant = 0; variant < FILLERS.length; variant++) {
    const input = inputOf(operation, variant);
    inputs.set(`${input.url}\n${input.body}`, input);
  }
  return [...inputs.values()];
}

async function send(operation: Operation, { url, body }: Input): Promise<number> {
  try {
    const res = await fetch(server.url + url, {
      method: operation.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': operation.body!.contentType } : {}),
      },
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

const samples: ProbeSample[] = [];
const rss: RssSample[] = [];

/**
 * Waits for the first probe call sent after `since` to be answered, so a stall the last request left
 * behind is seen; answers false when the process stays stalled past `STALLED_MS`.
 */
async function settled(since: number): Promise<boolean> {
  for (;;) {
    const taken = await probe.take();
    rss.push(...taken.rss);
    const waiting = taken.samples.find((s) => s.waiting);
    samples.push(...taken.samples.filter((s) => !s.waiting));
    if (taken.samples.some((s) => !s.waiting && s.sentAt >= since)) return true;
    if (waiting && waiting.waitMs > STALLED_MS) {
      samples.push({ sentAt: waiting.sentAt, waitMs: waiting.waitMs });
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const longestWait = (from: number, to: number) =>
  samples
    .filter((s) => s.sentAt <= to && s.sentAt + s.waitMs >= from)
    .reduce((longest, s) => Math.max(longest, s.waitMs), 0);

it(`keeps /health under ${PROBE_WAIT_BOUND_MS} ms and memory within ${RSS_GROWTH_BOUND_MB} MB over every operation's costliest inputs`, async () => {
  const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
  // The owner's session ends with the last of them.
  const endsSession = (op: Operation) => /^(auth\.logout|.*account\.delete)$/.test(op.operationId);
  const ordered = operationsOf(document);
  const operations = [...ordered.filter((op) => !endsSession(op)), ...ordered.filter(endsSession)];
  expect(operations.length).toBeGreaterThan(100);
  await settled(Date.now());
  const baseline = Math.max(...rss.map((r) => r.bytes));

  const findings: Finding[] = [];
  const answers = new Map<number, number>();
  for (const operation of operations) {
    // Validators and serializers are compiled on first use (measured: about 250 ms for a thread's answer,
    // once per process); the first costly input pays for that out of the count, and is then sent again.
    const inputs = costliestInputs(operation);
    await send(operation, inputs[0]!);
    await settled(Date.now());
    const from = Date.now();
    const statuses: number[] = [];
    for (const input of inputs) statuses.push(await send(operation, input));
    for (const status of statuses) answers.set(status, (answers.get(status) ?? 0) + 1);
    const healthy = await settled(Date.now());
    const probeMs = longestWait(from, Date.now());
    if (probeMs > PROBE_WAIT_BOUND_MS)
      findings.push({
        operation: `${operation.method} ${operation.path}`,
        probeMs: Math.round(probeMs),
        statuses,
      });
    if (!healthy) await restart();
  }
  const growthMb = (Math.max(...rss.map((r) => r.bytes)) - baseline) / 2 ** 20;
  const byStatus = [...answers].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  process.stdout.write(
    `cost: ${operations.length} operations, answers ${byStatus.join(', ')}; longest /health wait ` +
      `${Math.round(Math.max(...samples.map((s) => s.waitMs)))} ms; memory +${Math.round(growthMb)} MB ` +
      `(from ${Math.round(baseline / 2 ** 20)} MB)\n`,
  );
  // Enough of the costly inputs must be accepted, or the run proves only that validation is cheap.
  const accepted = [...answers].filter(([status]) => status >= 200 && status < 300);
  expect(accepted.reduce((n, [, count]) => n + count, 0)).toBeGreaterThan(operations.length / 2);
  expect(findings).toEqual([]);
  expect(growthMb).toBeLessThan(RSS_GROWTH_BOUND_MB);
}, 600_000);
