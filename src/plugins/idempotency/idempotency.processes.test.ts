import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../../test/helpers/database.ts';
import { type ServerProcess, startServer, stopServer } from '../../../test/helpers/server-process.ts';

// Two real processes of the service on one PostgreSQL database (PGlite serves one process only).
const ROUNDS = 10;
// Starting two processes on a loaded machine can take many seconds each.
const TIMEOUT_MS = 180_000;

describe.skipIf(!process.env.DATABASE_URL)('Idempotency-Key across two processes', () => {
  const servers: ServerProcess[] = [];
  let dataDir: string;

  beforeAll(async () => {
    const database = await cloneDatabase();
    await database.close();
    dataDir = mkdtempSync(join(tmpdir(), 'tmw-idempotency-'));
    const secret = randomBytes(32).toString('hex');
    const env = {
      DATABASE_URL: database.url!,
      DATA_DIR: dataDir,
      TOKEN_SECRET: secret,
      URL_SIGNING_SECRET: secret,
      PASSWORD_HASH_MEMORY_KIB: '256',
      PASSWORD_HASH_ITERATIONS: '1',
    };
    // One after the other: both apply the (already applied) migrations at start.
    servers.push(await startServer(env, 60_000));
    servers.push(await startServer(env, 60_000));
  }, TIMEOUT_MS);

  afterAll(async () => {
    for (const server of servers) await stopServer(server, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function post(
    server: ServerProcess,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.text() };
  }

  it(
    'runs a key sent to both processes at once exactly once, and both answer the same',
    async () => {
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const signup = await post(a, '/auth/signup', {
        email: `two-${randomBytes(4).toString('hex')}@example.test`,
        password: 'correct horse battery staple',
      });
      expect(signup.status).toBe(201);
      const authorization = `Bearer ${JSON.parse(signup.body).access_token}`;
      const team = await post(a, '/teams', { name: 'Two processes' }, { authorization });
      expect(team.status).toBe(201);
      const teamId = JSON.parse(team.body).id as number;

      for (let round = 0; round < ROUNDS; round++) {
        const headers = { authorization, 'idempotency-key': `both-at-once-${round}` };
        const body = { title: `Album ${round}`, teamId };
        const answers = await Promise.all([
          post(a, '/albums', body, headers),
          post(b, '/albums', body, headers),
        ]);
        expect(answers.map((res) => res.status)).toEqual([201, 201]);
        expect(answers[0]!.body).toBe(answers[1]!.body);
        expect(answers.filter((res) => res.replayed === 'true')).toHaveLength(1);
        expect(answers.filter((res) => res.replayed === null)).toHaveLength(1);
      }

      const list = await fetch(`${b.url}/api/v1/albums?teamId=${teamId}&limit=200`, {
        headers: { authorization },
      });
      const titles = ((await list.json()) as { items: { title: string }[] }).items.map(
        (album) => album.title,
      );
      expect(titles.sort()).toEqual(Array.from({ length: ROUNDS }, (_, round) => `Album ${round}`).sort());
    },
    TIMEOUT_MS,
  );
});
