import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir } from './helpers/data-dir.ts';
import { cloneDatabase } from './helpers/database.ts';
import { type ServerProcess, startServer as startProcess, stopServer } from './helpers/server-process.ts';

// The real process, on a fresh data directory (PGlite) or a private database (PostgreSQL).
let dataDir: string;
let env: Record<string, string>;
// Servers still running when a test fails are killed at the end, so none outlives the suite.
const started = new Set<ServerProcess>();
// Each test starts two real processes; on a loaded 2-core machine one start can take many seconds.
const PROCESS_TEST_TIMEOUT_MS = 120_000;

async function startServer(serverEnv: Record<string, string>): Promise<ServerProcess> {
  const server = await startProcess(serverEnv, 60_000);
  started.add(server);
  server.child.once('exit', () => started.delete(server));
  return server;
}

beforeAll(async () => {
  dataDir = await newDataDir('tmw-durability-');
  env = { DATA_DIR: dataDir };
  if (process.env.DATABASE_URL) {
    const database = await cloneDatabase();
    await database.close();
    env.DATABASE_URL = database.url!;
  }
});

afterAll(async () => {
  for (const server of started) server.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(server: ServerProcess, path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

describe('durability of acknowledged writes', () => {
  it(
    'keeps every write answered 2xx across kill -9 and a restart on the same data',
    async () => {
      const first = await startServer(env);
      const accounts = Array.from({ length: 12 }, (_, i) => ({
        email: `durable-${i}@example.test`,
        password: `secret-pw-${i}`,
      }));
      const written = await Promise.all(accounts.map((a) => post(first, '/api/v1/auth/signup', a)));
      expect(written.map((w) => w.status)).toEqual(accounts.map(() => 201));
      const key = await post(first, '/api/v1/auth/login', accounts[0]);
      expect(key.status).toBe(200);

      expect(await stopServer(first, 'SIGKILL')).toBeNull();

      const second = await startServer(env);
      try {
        for (const account of accounts) {
          const login = await post(second, '/api/v1/auth/login', account);
          expect(login.status, account.email).toBe(200);
        }
        // The session opened before the crash is still valid: its refresh token works.
        const refreshed = await post(second, '/api/v1/auth/refresh', {
          refresh_token: key.body?.refresh_token,
        });
        expect(refreshed.status).toBe(200);
      } finally {
        expect(await stopServer(second, 'SIGTERM')).toBe(0);
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'shuts down cleanly on SIGTERM and starts again on the same data',
    async () => {
      const server = await startServer(env);
      const health = await fetch(`${server.url}/api/v1/health`);
      expect(health.status).toBe(200);
      expect(await stopServer(server, 'SIGTERM')).toBe(0);
      const again = await startServer(env);
      expect((await fetch(`${again.url}/api/v1/health`)).status).toBe(200);
      expect(await stopServer(again, 'SIGINT')).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
