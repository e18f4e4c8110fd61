import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir } from '../../test/helpers/data-dir.ts';
import { cloneDatabase } from '../../test/helpers/database.ts';
import { startServer, stopServer, TEST_PASSWORD_HASHING } from '../../test/helpers/server-process.ts';
import { DATA_DIR_ENTRIES } from '../shared/private-files.ts';

const PROCESS_TEST_TIMEOUT_MS = 180_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Run = { code: number; stdout: string; stderr: string };

/** Runs `tmw` as a user would, on the embedded database under `dataDir` unless `env` says otherwise. */
async function tmw(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/tmw.js', ...args], {
      env: { ...process.env, ...TEST_PASSWORD_HASHING, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const PASSWORD = 'a long password';
const userCreate = (email: string) => ['user', 'create', '--email', email, '--password', PASSWORD];

/** The status of a sign-in on the running server: 200 once the user exists there. */
const loginStatus = async (url: string, email: string) =>
  (
    await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    })
  ).status;

let dataDir: string;
beforeAll(async () => {
  dataDir = await newDataDir('tmw-cli-');
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('tmw on the embedded database', () => {
  it(
    'is refused while the server has the data directory, and creates nothing; works once it stopped',
    async () => {
      const lock = join(dataDir, DATA_DIR_ENTRIES.lock);
      const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' }, 60_000);
      try {
        expect(existsSync(lock)).toBe(true);
        const refused = await tmw(dataDir, userCreate('busy@example.com'));
        expect(refused.code).not.toBe(0);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toContain(`in use by the server (pid ${server.child.pid} `);
        expect(await loginStatus(server.url, 'busy@example.com')).toBe(401);
      } finally {
        expect(await stopServer(server, 'SIGTERM')).toBe(0);
      }
      expect(existsSync(lock)).toBe(false);

      const created = await tmw(dataDir, userCreate('busy@example.com'));
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout.trim()).toMatch(UUID);
      expect(existsSync(lock)).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'takes over the lock of a holder that died',
    async () => {
      const child = spawn(process.execPath, ['-e', '']);
      await once(child, 'exit');
      const lock = join(dataDir, DATA_DIR_ENTRIES.lock);
      const holder = {
        pid: child.pid,
        command: 'tmw plans',
        startedAt: new Date().toISOString(),
        host: hostname(),
      };
      writeFileSync(lock, JSON.stringify(holder));
      const plans = await tmw(dataDir, ['plans']);
      expect(plans.code, plans.stderr).toBe(0);
      expect(plans.stdout).toMatch(/req\/min/);
      expect(existsSync(lock)).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'answers an e-mail already taken in one line, without the statement or the password hash',
    async () => {
      expect((await tmw(dataDir, userCreate('twice@example.com'))).code).toBe(0);
      const again = await tmw(dataDir, userCreate('twice@example.com'));
      expect(again.code).toBe(1);
      expect(again.stdout).toBe('');
      expect(again.stderr).toBe('tmw: a user with that e-mail already exists\n');
      expect(again.stderr).not.toMatch(/argon2|insert|select|params/i);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'names the configuration values that are wrong without echoing a secret',
    async () => {
      const secrets = {
        TOKEN_SECRET: 'short-Sekr1t-token',
        URL_SIGNING_SECRET: 'short-Sekr1t-url',
        DATABASE_URL: 'mysql://root:Sekr1t-pw@db.example.com/tmw',
        REDIS_URL: 'http://:Sekr1t-redis@cache.example.com',
      };
      const run = await tmw(dataDir, ['plans'], secrets);
      expect(run.code).toBe(1);
      for (const name of Object.keys(secrets)) expect(run.stderr).toContain(`${name}:`);
      expect(run.stderr).not.toContain('Sekr1t');
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe.runIf(process.env.DATABASE_URL)('tmw on PostgreSQL', () => {
  it(
    'works beside the running server: the database takes both, so no lock is kept',
    async () => {
      const clone = await cloneDatabase();
      await clone.close();
      const env = { DATA_DIR: dataDir, DATABASE_URL: clone.url! };
      const server = await startServer(env, 60_000);
      try {
        expect(existsSync(join(dataDir, DATA_DIR_ENTRIES.lock))).toBe(false);
        const created = await tmw(dataDir, userCreate('beside@example.com'), env);
        expect(created.code, created.stderr).toBe(0);
        expect(await loginStatus(server.url, 'beside@example.com')).toBe(200);
      } finally {
        expect(await stopServer(server, 'SIGTERM')).toBe(0);
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
