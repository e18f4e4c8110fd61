import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestContext } from './helpers/context.ts';
import { newDataDir } from './helpers/data-dir.ts';
import { cloneDatabase } from './helpers/database.ts';
import { type ServerProcess, startServer, stopServer } from './helpers/server-process.ts';

// Every route whose capability is a token in its path, as the app declares them (`config.pathToken`), called
// on the real service with request logging on: the token is never in what the process writes.
const ctx = useTestContext();
const PROCESS_TEST_TIMEOUT_MS = 120_000;
let dataDir: string;
let server: ServerProcess;

beforeAll(async () => {
  dataDir = await newDataDir('tmw-path-token-logs-');
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  if (process.env.DATABASE_URL) {
    const database = await cloneDatabase();
    await database.close();
    env.DATABASE_URL = database.url!;
  }
  server = await startServer(env, 60_000);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  if (server) await stopServer(server, 'SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('request logs of the service', () => {
  it(
    'never hold the token of a token path, for the method it takes or any other',
    async () => {
      const routes = ctx.app.pathTokens.routes();
      // Invites, session links, calendar feeds and public tour covers at least.
      expect(routes.length).toBeGreaterThanOrEqual(5);
      const signup = await fetch(`${server.url}/api/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'logs@example.com', password: 'a long enough password' }),
      });
      expect(signup.status).toBe(201);
      const { access_token: bearer } = (await signup.json()) as { access_token: string };

      const sent: string[] = [];
      for (const { method, url } of routes) {
        for (const asked of [method, 'DELETE']) {
          const token = `Tk${randomBytes(18).toString('hex')}`;
          sent.push(token);
          const path = url.replace(':token', token).replace(/:\w+/g, '1');
          const res = await fetch(`${server.url}${path}?x=1`, {
            method: asked,
            headers: {
              authorization: `Bearer ${bearer}`,
              ...(asked === 'POST' ? { 'content-type': 'application/json' } : {}),
            },
            ...(asked === 'POST' ? { body: '{}' } : {}),
          });
          await res.arrayBuffer();
          expect(res.status, `${asked} ${url}`).toBeGreaterThanOrEqual(400);
        }
      }
      // Each request was logged, with its path redacted (the lines come through a pipe, so they may trail
      // the answers a little).
      const logged = routes.map(({ url }) => `${url.replace(':token', '[redacted]')}?x=1`);
      const deadline = Date.now() + 10_000;
      while (!logged.every((path) => server.output().includes(path)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const output = server.output();
      for (const path of logged) expect(output).toContain(path);
      for (const token of sent) expect(output).not.toContain(token);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
