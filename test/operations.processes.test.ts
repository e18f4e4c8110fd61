import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir } from './helpers/data-dir.ts';
import { cloneDatabase } from './helpers/database.ts';
import { type ServerProcess, startServer, stopServer } from './helpers/server-process.ts';

// The real service: its own metrics listener, quiet probes, trace ids in its log lines, and what it does
// with an error nothing caught.
const PROCESS_TEST_TIMEOUT_MS = 120_000;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const dirs: string[] = [];

async function serverEnv(): Promise<Record<string, string>> {
  const dataDir = await newDataDir('tmw-operations-');
  dirs.push(dataDir);
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  if (process.env.DATABASE_URL) {
    const database = await cloneDatabase();
    await database.close();
    env.DATABASE_URL = database.url!;
  }
  return env;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const logLines = (server: ServerProcess) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown> & { msg?: string; level: number });

describe('the service process', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ ...(await serverEnv()), METRICS_PORT: '0' }, 60_000);
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    if (server) await stopServer(server, 'SIGTERM');
  });

  it('serves /metrics on METRICS_PORT without a token, and not on the main port', async () => {
    const listening = /Metrics listening at (http:\/\/127\.0\.0\.1:\d+\/metrics)/;
    await expect.poll(() => server.output()).toMatch(listening);
    const url = listening.exec(server.output())?.[1];
    await fetch(`${server.url}/api/v1/health`);
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /tmw_http_requests_total\{operation="health\.get",method="GET",status="200",caller="anonymous"\} 1/,
    );
    expect(text).toContain('tmw_nodejs_eventloop_lag_seconds');
    expect((await fetch(url!.replace('/metrics', '/other'))).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  it('answers probes without logging them at info', async () => {
    const before = server.output().length;
    expect((await fetch(`${server.url}/livez`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    await fetch(`${server.url}/api/v1/health`);
    // The health call is logged; once it is, the probes before it would have been too.
    await expect.poll(() => server.output().slice(before)).toContain('/api/v1/health');
    expect(server.output().slice(before)).not.toMatch(/livez|readyz/);
  });

  it("logs the caller's trace id with the request's lines and answers a traceparent of the same trace", async () => {
    const res = await fetch(`${server.url}/api/v1/health`, {
      headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`, 'x-request-id': 'traced-request' },
    });
    const answered = res.headers.get('traceparent') ?? '';
    expect(answered).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(answered).not.toContain('00f067aa0ba902b7');
    await expect.poll(() => logLines(server).filter((l) => l.reqId === 'traced-request').length).toBe(2);
    for (const line of logLines(server).filter((l) => l.reqId === 'traced-request'))
      expect(line.traceId).toBe(TRACE_ID);
    // Without one (or with a broken one), a new trace.
    const fresh = await fetch(`${server.url}/api/v1/health`, {
      headers: { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` },
    });
    expect(fresh.headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(fresh.headers.get('traceparent')).not.toContain('0'.repeat(32));
  });
});

describe('an error nothing caught', () => {
  // Thrown (or rejected) by code loaded before the service, on a signal the test sends once it listens.
  const crash = (body: string) =>
    `--import=data:text/javascript,${encodeURIComponent(`process.on('SIGUSR2', () => { ${body} });`)}`;

  for (const [kind, body, message] of [
    ['uncaught exception', "throw new Error('thrown-by-test')", 'uncaught exception; shutting down'],
    [
      'unhandled rejection',
      "Promise.reject(new Error('rejected-by-test'))",
      'unhandled promise rejection; shutting down',
    ],
  ] as const)
    it(
      `is logged at fatal before the process exits with 1: ${kind}`,
      async () => {
        const server = await startServer({ ...(await serverEnv()), NODE_OPTIONS: crash(body) }, 60_000);
        const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
        server.child.kill('SIGUSR2');
        const code = await exited;
        expect(code).toBe(1);
        const fatal = logLines(server).find((line) => line.level === 60);
        expect(fatal?.msg).toBe(message);
        expect(JSON.stringify(fatal?.err)).toContain(
          body.includes('thrown') ? 'thrown-by-test' : 'rejected-by-test',
        );
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
});
