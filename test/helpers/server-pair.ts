import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { cloneDatabase } from './database.ts';
import { type ServerProcess, startServer, stopServer } from './server-process.ts';

export type ServerPair = { a: ServerProcess; b: ServerProcess; database: Database };

/**
 * Two real processes of the service on one cloned PostgreSQL database (PGlite serves one process only),
 * started before the file's tests and stopped after them; answers a getter of the two and the database
 * they share, open for the test's own set-up; `settings` adds to their environment.
 */
export function useServerPair(timeoutMs: number, settings: Record<string, string> = {}): () => ServerPair {
  let pair: ServerPair | undefined;
  let database: (Database & { url?: string }) | undefined;
  let dataDir: string | undefined;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await cloneDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'tmw-pair-'));
    const secret = randomBytes(32).toString('hex');
    const env = {
      DATABASE_URL: database.url!,
      DATA_DIR: dataDir,
      TOKEN_SECRET: secret,
      URL_SIGNING_SECRET: secret,
      ...settings,
    };
    // One after the other: both apply the (already applied) migrations at start.
    servers.push(await startServer(env, 60_000));
    servers.push(await startServer(env, 60_000));
    pair = { a: servers[0]!, b: servers[1]!, database };
  }, timeoutMs);

  afterAll(async () => {
    for (const server of servers) await stopServer(server, 'SIGTERM');
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  return () => {
    if (!pair) throw new Error('The server pair is only available inside tests');
    return pair;
  };
}
