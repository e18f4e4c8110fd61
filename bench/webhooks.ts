import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { api, buildService, start, stop, tmw } from './processes.ts';

/**
 * `node --import ./bin/typescript.js bench/webhooks.ts`: webhook delivery from commit to receiver. Starts the service on a fresh
 * data directory (or BENCH_DATABASE_URL, a scratch database) with a receiver on 127.0.0.1, registers one endpoint,
 * then records test events through the API (POST /webhooks/{id}/test, BENCH_WEBHOOK_CONNECTIONS at a time):
 * first a trickle (BENCH_WEBHOOK_TRICKLE events one after the other, each waited for), then a burst of
 * BENCH_WEBHOOK_EVENTS (default 5,000) committed as fast as possible. For each it prints events per second from
 * the first commit to the last receipt and the commit-to-receipt latency (p50, p99, max), measured from the
 * event's own timestamp (taken in its transaction) to its arrival at the receiver, on the same machine clock.
 * Last, events recorded per second (the burst through the API) and deliveries per second (the burst from its
 * first commit to its last receipt) beside the bare node:http ceiling, measured in the same run with
 * autocannon for BENCH_DURATION seconds (default 5) on as many connections.
 */
const burst = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5_000);
const trickle = Number(process.env.BENCH_WEBHOOK_TRICKLE ?? 200);
const connections = Number(process.env.BENCH_WEBHOOK_CONNECTIONS ?? 32);
const duration = Number(process.env.BENCH_DURATION ?? 5);

/** Requests per second of the bare node:http ceiling (a constant JSON answer) on this machine now. */
async function ceilingRate(): Promise<number> {
  const ceiling = await start(['--import', './bin/typescript.js', 'bench/ceiling.ts'], {}, '/');
  try {
    const result = await autocannon({ url: `${ceiling.url}/`, connections, duration });
    return result.requests.average;
  } finally {
    await stop(ceiling.child);
  }
}

/** A receiver that notes when each event first arrives (and how many requests came in all). */
async function startReceiver() {
  const arrivals = new Map<string, { at: number; committedAt: number }>();
  let requests = 0;
  let waiting: { count: number; resolve: () => void } | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      requests++;
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) {
        const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
        arrivals.set(id, { at, committedAt: Date.parse(timestamp) });
      }
      res.writeHead(204).end();
      if (waiting && arrivals.size >= waiting.count) waiting.resolve();
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    requests: () => requests,
    /** Resolves once `count` distinct events have arrived. */
    until: (count: number) =>
      arrivals.size >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiting = { count, resolve };
          }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Events delivered per second, from the first one's commit to the last one's receipt. */
function deliveryRate(ids: string[], arrivals: Map<string, { at: number; committedAt: number }>): number {
  const timings = ids.map((id) => arrivals.get(id)!);
  const first = Math.min(...timings.map((t) => t.committedAt));
  const last = Math.max(...timings.map((t) => t.at));
  return ids.length / ((last - first) / 1000);
}

function report(name: string, ids: string[], arrivals: Map<string, { at: number; committedAt: number }>) {
  const timings = ids.map((id) => arrivals.get(id)!);
  const latencies = timings.map((t) => t.at - t.committedAt).sort((a, b) => a - b);
  const rate = deliveryRate(ids, arrivals);
  process.stdout.write(
    `${name.padEnd(34)}${String(ids.length).padStart(7)}${rate.toFixed(0).padStart(10)}` +
      `${String(percentile(latencies, 50)).padStart(9)}${String(percentile(latencies, 99)).padStart(9)}` +
      `${String(latencies.at(-1)).padStart(9)}\n`,
  );
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tmw-bench-webhooks-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
  };
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const email = `bench-webhooks-${Date.now()}@example.test`;
  tmw(['user', 'create', '--email', email, '--password', 'bench-password'], env);
  const teamId = Number(tmw(['team', 'create', '--name', 'Bench webhooks', '--owner', email], env));

  const receiver = await startReceiver();
  const server = await start(buildService(), env, '/api/v1/health');
  try {
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench-password' }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const endpoint = await api<{ id: number }>(`${server.url}/api/v1/webhooks/`, token, 'POST', {
      url: receiver.url,
      teamId,
    });
    const record = () =>
      api<{ id: string }>(`${server.url}/api/v1/webhooks/${endpoint.id}/test`, token, 'POST').then(
        (e) => e.id,
      );

    const trickled: string[] = [];
    for (let i = 0; i < trickle; i++) {
      trickled.push(await record());
      await receiver.until(trickled.length);
    }

    const recordStarted = Date.now();
    const burstIds: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next++ < burst) burstIds.push(await record());
      }),
    );
    const recordSeconds = (Date.now() - recordStarted) / 1000;
    await receiver.until(trickle + burst);

    process.stdout.write(
      `\ndatabase: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; burst recorded at ` +
        `${(burst / recordSeconds).toFixed(0)} events/s through the API (${connections} connections); ` +
        `${receiver.requests()} requests for ${trickle + burst} events\n\n`,
    );
    process.stdout.write(
      `${'scenario'.padEnd(34)}${'events'.padStart(7)}${'events/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}\n`,
    );
    report('trickle (one at a time)', trickled, receiver.arrivals);
    report('burst (as fast as possible)', burstIds, receiver.arrivals);
    await stop(server.child);

    const ceiling = await ceilingRate();
    const rows: [string, number][] = [
      ['node:http ceiling (JSON)', ceiling],
      ['events recorded (POST .../test)', burst / recordSeconds],
      ['deliveries (commit to receipt)', deliveryRate(burstIds, receiver.arrivals)],
    ];
    process.stdout.write(
      `\n${'beside the ceiling'.padEnd(34)}${'per s'.padStart(10)}${'ratio'.padStart(8)}\n`,
    );
    for (const [name, rate] of rows) {
      process.stdout.write(
        `${name.padEnd(34)}${rate.toFixed(0).padStart(10)}${(rate / ceiling).toFixed(2).padStart(8)}\n`,
      );
    }
  } finally {
    await stop(server.child);
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
