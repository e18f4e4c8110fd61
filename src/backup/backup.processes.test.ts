import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir } from '../../test/helpers/data-dir.ts';
import {
  type ServerProcess,
  startServer,
  stopServer,
  TEST_PASSWORD_HASHING,
} from '../../test/helpers/server-process.ts';
import { encodeWav, sine } from '../media/test-audio.ts';
import { call } from '../modules/webhooks/fixtures/server-api.ts';
import { DATA_DIR_ENTRIES } from '../shared/private-files.ts';
import { CONTROL_SOCKET } from './control-socket.ts';

const PROCESS_TEST_TIMEOUT_MS = 240_000;
// The embedded database, whichever engine the rest of the run uses: backups are of DATA_DIR.
const EMBEDDED = { DATABASE_URL: '' };
/**
 * The servers: the embedded database, and room to stop on SIGTERM while the restored server is still drawing
 * the waveform of the restored upload on a busy machine (past SHUTDOWN_TIMEOUT_MS the process exits 1).
 */
const SERVER = { ...EMBEDDED, SHUTDOWN_TIMEOUT_MS: '30000' };

type Run = { code: number; stdout: string; stderr: string };

async function tmw(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/tmw.js', ...args], {
      env: { ...process.env, ...TEST_PASSWORD_HASHING, DATA_DIR: dataDir, ...EMBEDDED, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function ok(server: ServerProcess, method: string, path: string, token?: string, body?: unknown) {
  const answer = await call(server, method, path, token, body);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

/** A signed URL names the configured public origin; the test's process listens elsewhere. */
const onServer = (server: ServerProcess, signed: string) => {
  const url = new URL(signed);
  return `${server.url}${url.pathname}${url.search}`;
};

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tmw-backup-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('tmw backup and tmw restore', () => {
  it(
    'back up a running server, and the restored directory serves the same tracks, bytes, tokens and keys',
    async () => {
      const source = await newDataDir('tmw-backup-source-');
      const target = join(work, 'restored');
      const archive = join(work, 'backup.tar.gz');
      const audio = encodeWav(sine({ seconds: 1, sampleRate: 8000, amplitude: 0.5 }), 8000, 'pcm16');
      let server = await startServer({ DATA_DIR: source, ...SERVER }, 60_000);
      let token: string;
      let key: string;
      let trackPath: string;
      let streamUrl: string;
      try {
        const signup = await ok(server, 'POST', '/api/v1/auth/signup', undefined, {
          email: `backup-${randomBytes(4).toString('hex')}@example.test`,
          password: 'backup-password',
        });
        token = String(signup.access_token);
        const team = await ok(server, 'POST', '/api/v1/teams/', token, { name: 'Backed up' });
        const created = await ok(server, 'POST', `/api/v1/teams/${team.id}/api-keys`, token, {
          name: 'ci',
          scopes: ['tracks:write'],
        });
        key = String(created.key);
        const track = await ok(server, 'POST', '/api/v1/tracks/', token, {
          title: 'Kept safe',
          team_id: team.id,
          audio_file_name: 'take.wav',
        });
        trackPath = `/api/v1/tracks/${track.id}`;
        const version = await ok(server, 'POST', `${trackPath}/versions/create`, token, {
          audio_file_name: 'take.wav',
          audio_file_size: audio.length,
        });
        const ticket = version.upload as {
          uploadUrl: string;
          headers: Record<string, string>;
          fileKey: string;
        };
        const { 'content-length': _length, ...headers } = ticket.headers;
        const put = await fetch(onServer(server, ticket.uploadUrl), { method: 'PUT', headers, body: audio });
        expect(put.status, await put.text()).toBe(200);
        await ok(server, 'PUT', `${trackPath}/versions/${version.id}/audio`, token, {
          fileKey: ticket.fileKey,
        });
        const detail = await ok(server, 'GET', `${trackPath}/versions/${version.id}/detail`, token);
        streamUrl = String((detail.audio as { url: string }).url);
        expect(existsSync(join(source, CONTROL_SOCKET))).toBe(true);

        const backup = await tmw(source, ['backup', archive]);
        expect(backup.code, backup.stderr).toBe(0);
        expect(backup.stdout).toMatch(/^backup written to .*\(\d+ blob files\)/);
        // Holds the secrets: for the service's user only.
        expect(statSync(archive).mode & 0o777).toBe(0o600);
        // The server kept serving, and left nothing of the backup behind.
        await ok(server, 'GET', trackPath, token);
        expect(server.output()).toContain('backup snapshot taken');

        const again = await tmw(source, ['backup', archive]);
        expect(again.code).toBe(1);
        expect(again.stderr).toContain('exists; pass --force');
        const busy = await tmw(source, ['restore', archive, '--force']);
        expect(busy.code).toBe(1);
        expect(busy.stderr).toContain(`in use by the server (pid ${server.child.pid} `);
      } finally {
        expect(await stopServer(server, 'SIGTERM')).toBe(0);
      }
      expect(existsSync(join(source, CONTROL_SOCKET))).toBe(false);

      const restored = await tmw(target, ['restore', archive]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(`into ${target}`);
      const refused = await tmw(target, ['restore', archive]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('the data directory is not empty');
      expect(readFileSync(join(target, DATA_DIR_ENTRIES.secrets), 'utf8')).toBe(
        readFileSync(join(source, DATA_DIR_ENTRIES.secrets), 'utf8'),
      );

      rmSync(source, { recursive: true, force: true });
      server = await startServer({ DATA_DIR: target, ...SERVER }, 60_000);
      try {
        // The session token, the API key and the signed URL were all made before the backup.
        const read = await ok(server, 'GET', trackPath, token);
        expect(read.title).toBe('Kept safe');
        expect((await call(server, 'GET', trackPath, key)).status).toBe(200);
        const download = await fetch(onServer(server, streamUrl));
        expect(download.status).toBe(200);
        expect(Buffer.from(await download.arrayBuffer()).equals(audio)).toBe(true);
      } finally {
        const code = await stopServer(server, 'SIGTERM');
        expect(code, server.output()).toBe(0);
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    'backs up a stopped data directory itself, and refuses a cut archive without touching the directory',
    async () => {
      const dataDir = await newDataDir('tmw-backup-stopped-');
      try {
        // With DATABASE_URL the helper leaves the embedded database to be made.
        if (!existsSync(join(dataDir, DATA_DIR_ENTRIES.database)))
          expect((await tmw(dataDir, ['migrate'])).code).toBe(0);
        const archive = join(work, 'stopped.tar.gz');
        const made = await tmw(dataDir, ['backup', archive]);
        expect(made.code, made.stderr).toBe(0);
        expect(existsSync(join(dataDir, DATA_DIR_ENTRIES.lock))).toBe(false);
        const cut = join(work, 'cut.tar.gz');
        const bytes = readFileSync(archive);
        writeFileSync(cut, bytes.subarray(0, bytes.length - 1000));
        const target = join(work, 'from-cut');
        const refused = await tmw(target, ['restore', cut]);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('tmw: not a readable backup archive');
        expect(existsSync(join(target, DATA_DIR_ENTRIES.database))).toBe(false);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it('refuses with DATABASE_URL set, pointing to pg_dump and the blob store', async () => {
    const run = await tmw(join(work, 'unused'), ['backup', join(work, 'pg.tar.gz')], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pg_dump');
    expect(run.stderr).toContain('blob store');
    expect(existsSync(join(work, 'pg.tar.gz'))).toBe(false);
  });
});
