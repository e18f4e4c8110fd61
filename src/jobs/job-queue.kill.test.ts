import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestClock } from '../../test/helpers/context.ts';
import { newDataDir } from '../../test/helpers/data-dir.ts';
import { cloneDatabase } from '../../test/helpers/database.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { JobQueue } from './job-queue.ts';

const LEASE_MS = 60_000;

// A real process on a migrated data directory (PGlite, one owner at a time) or a private PostgreSQL database.
let dataDir: string;
let databaseUrl: string | undefined;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dataDir = await newDataDir('tmw-jobs-kill-');
  if (process.env.DATABASE_URL) {
    const clone = await cloneDatabase();
    await clone.close();
    databaseUrl = clone.url;
  }
});

afterAll(() => {
  // Also when the test timed out before killing it.
  if (child?.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const open = () => openDatabase({ databaseUrl, dataDir });

async function claimedBy(child: ChildProcess): Promise<void> {
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker claimed nothing:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('claimed')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with ${code}:\n${output}`));
    });
  });
}

it('runs a job again after the process running it is killed and its lease expires', async () => {
  let database: Database = await open();
  await new JobQueue(database.db, new TestClock()).enqueue(database.db, 'hang', { fileId: 'f1' });
  if (database.kind === 'pglite') await database.close();

  child = spawn(
    process.execPath,
    ['--import', './bin/typescript.js', 'src/jobs/fixtures/hanging-worker.ts'],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        LEASE_MS: String(LEASE_MS),
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const worker = child;
  await claimedBy(worker);
  const exited = once(worker, 'exit');
  worker.kill('SIGKILL');
  await exited;

  if (database.kind === 'pglite') database = await open();
  try {
    expect(await database.db.select().from(jobs)).toMatchObject([{ status: 'running', attempts: 1 }]);
    const attempts: number[] = [];
    const queueAt = (clock: TestClock) => {
      const queue = new JobQueue(database.db, clock);
      queue.define('hang', async (_payload, { attempt }) => {
        attempts.push(attempt);
      });
      return queue;
    };
    // Lease times come from the worker's system clock.
    expect(await queueAt(new TestClock(Date.now())).runDue()).toBe(0);
    expect(await queueAt(new TestClock(Date.now() + LEASE_MS + 1_000)).runDue()).toBe(1);
    expect(attempts).toEqual([2]);
    expect(await database.db.select().from(jobs)).toEqual([]);
  } finally {
    await database.close();
  }
}, 60_000);
