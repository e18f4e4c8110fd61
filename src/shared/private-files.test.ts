import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { LocalDiskStore } from '../storage/local-disk-store.ts';
import { tightenDataDir } from './private-files.ts';
import { resolveSecrets } from './secrets.ts';

let base: string;
let dataDir: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'tmw-private-'));
  dataDir = join(base, 'data');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

// A new embedded database is initialised from scratch; on a loaded 2-core machine that takes many seconds.
const FRESH_DATABASE_TIMEOUT_MS = 120_000;

const modeOf = (path: string) => statSync(path).mode & 0o777;
const configFor = (dir: string) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir });

/** Runs `work` with a umask that takes nothing away, as a careless service manager may set. */
async function withOpenUmask<T>(work: () => Promise<T>): Promise<T> {
  const previous = process.umask(0);
  try {
    return await work();
  } finally {
    process.umask(previous);
  }
}

describe('files under DATA_DIR', () => {
  it(
    'are created for the owner only, whatever the umask',
    async () => {
      await withOpenUmask(async () => {
        resolveSecrets(configFor(dataDir));
        const database = await openDatabase({ dataDir });
        await database.close();
        const store = new LocalDiskStore({
          root: join(dataDir, 'blobs'),
          publicBaseUrl: 'https://api.example.test',
          signingSecret: 'private-files-test-secret-0123456789',
        });
        await store.put('teams/1/media/take.wav', Buffer.from('RIFF'), { contentType: 'audio/wav' });
      });
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(join(dataDir, 'secrets.json'))).toBe(0o600);
      expect(modeOf(join(dataDir, 'pg'))).toBe(0o700);
      for (const folder of ['blobs', 'blobs/.tmp', 'blobs/.meta', 'blobs/teams', 'blobs/teams/1/media'])
        expect(modeOf(join(dataDir, folder)), folder).toBe(0o700);
      expect(modeOf(join(dataDir, 'blobs/teams/1/media/take.wav'))).toBe(0o600);
      expect(modeOf(join(dataDir, 'blobs/.meta/teams/1/media/take.wav.json'))).toBe(0o600);
    },
    FRESH_DATABASE_TIMEOUT_MS,
  );

  it('are made owner-only on start when they were open to others, and said so once', () => {
    for (const folder of ['', 'pg', 'blobs']) {
      mkdirSync(join(dataDir, folder), { recursive: true });
      chmodSync(join(dataDir, folder), 0o755);
    }
    writeFileSync(join(dataDir, 'secrets.json'), '{}');
    chmodSync(join(dataDir, 'secrets.json'), 0o644);
    expect(tightenDataDir(dataDir)).toEqual(['', 'pg', 'blobs', 'secrets.json'].map((p) => join(dataDir, p)));
    expect([dataDir, join(dataDir, 'pg'), join(dataDir, 'blobs')].map(modeOf)).toEqual([0o700, 0o700, 0o700]);
    expect(modeOf(join(dataDir, 'secrets.json'))).toBe(0o600);
    expect(tightenDataDir(dataDir)).toEqual([]);
  });

  it('keeps secrets.json owner-only when it is completed', () => {
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify({ tokenSecret: 'kept-token-secret' }));
    chmodSync(join(dataDir, 'secrets.json'), 0o644);
    expect(resolveSecrets(configFor(dataDir)).tokenSecret).toBe('kept-token-secret');
    expect(modeOf(join(dataDir, 'secrets.json'))).toBe(0o600);
  });
});
