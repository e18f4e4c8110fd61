import { chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir } from './helpers/data-dir.ts';
import { cloneDatabase } from './helpers/database.ts';
import { startServer, stopServer } from './helpers/server-process.ts';

// The real process on a data directory left open to other users (PGlite, or PostgreSQL with blobs and
// secrets still under DATA_DIR).
let dataDir: string;
const env: Record<string, string> = {};
const PROCESS_TEST_TIMEOUT_MS = 120_000;
const WARNING = 'data directory permissions were open to other users; made owner-only';

beforeAll(async () => {
  dataDir = await newDataDir('tmw-data-dir-');
  env.DATA_DIR = dataDir;
  if (process.env.DATABASE_URL) {
    const database = await cloneDatabase();
    await database.close();
    env.DATABASE_URL = database.url!;
  }
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the data directory on start', () => {
  it(
    'is made owner-only, secrets.json included, with one warning',
    async () => {
      chmodSync(dataDir, 0o755);
      if (!env.DATABASE_URL) chmodSync(join(dataDir, 'pg'), 0o755);
      mkdirSync(join(dataDir, 'blobs'), { mode: 0o755 });
      writeFileSync(join(dataDir, 'secrets.json'), '{}', { mode: 0o644 });
      chmodSync(join(dataDir, 'secrets.json'), 0o644);
      const server = await startServer(env, 60_000);
      try {
        expect(modeOf(dataDir)).toBe(0o700);
        expect(modeOf(join(dataDir, 'blobs'))).toBe(0o700);
        expect(modeOf(join(dataDir, 'secrets.json'))).toBe(0o600);
        if (!env.DATABASE_URL) expect(modeOf(join(dataDir, 'pg'))).toBe(0o700);
        expect(server.output().split(WARNING)).toHaveLength(2);
      } finally {
        expect(await stopServer(server, 'SIGTERM')).toBe(0);
      }
      const again = await startServer(env, 60_000);
      expect(again.output()).not.toContain(WARNING);
      expect(await stopServer(again, 'SIGTERM')).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
