import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { Database, Db } from './database.ts';
import { PgliteStatements } from './pglite-statements.ts';
import { PLANNER_SETTINGS } from './planner-settings.ts';
import * as schema from './schema/index.ts';
import { attachPgliteStatements } from './statement-registry.ts';

/**
 * Postgres runs as WebAssembly, compiled by V8 lazily with its baseline compiler (Liftoff). Left to tier
 * up, V8 recompiles the hottest functions with its optimizing compiler, and that took about 500 MB of
 * compiler memory for a moment, seconds after every start, and left 60 MB more resident: a process sized
 * for its idle use would be killed in that moment. Baseline code runs Postgres' own work (sorting,
 * scanning) up to twice as slow, so the service chooses (EMBEDDED_DB_OPTIMIZE); a process started with a
 * tiering flag of its own (`node --wasm-dynamic-tiering ...`) keeps V8's choice.
 */
const BASELINE_WASM_ONLY = ['--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];

/** Keeps WebAssembly compiled from now on to baseline code, unless the process was started with a choice. */
function keepWasmBaseline(): void {
  if (process.execArgv.some((arg) => /^--(no-)?wasm-(tier-up|dynamic-tiering)$/.test(arg))) return;
  for (const flag of BASELINE_WASM_ONLY) setFlagsFromString(flag);
}

/**
 * Postgres' shared memory lives in the WebAssembly memory, which never shrinks: with PostgreSQL's default
 * of 128 MB of shared buffers it came to hold 150 MB of the idle process. 16 MB keeps the hot pages of a
 * team's data; the rest is read from the files through the system's cache. Given at every start, not
 * written into the data directory.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * The embedded database persisted in `dir`; `optimized` lets V8 optimize its code (faster, more memory).
 * Opened first in its process (the server, the CLI), so the choice holds before the engine is compiled.
 */
export async function openPglite(dir: string, { optimized = false } = {}): Promise<Database> {
  if (!optimized) keepWasmBaseline();
  if (!existsSync(join(dir, 'PG_VERSION'))) await initializeApart(dir);
  return wrapPglite(await PGlite.create({ dataDir: dir, startParams: PGLITE_START_PARAMS }));
}

const run = promisify(execFile);

/**
 * Creates the empty database in `dir` (initdb) in a process of its own. Done in this one, it raised the
 * peak to 1 GB and left 70 MB more resident for the process' whole life (memory the allocator kept).
 */
async function initializeApart(dir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `(async () => {
    const { PGlite } = require(${JSON.stringify(pglite)});
    const db = await PGlite.create({ dataDir: process.argv[1], startParams: ${JSON.stringify(PGLITE_START_PARAMS)} });
    await db.close();
  })().catch((error) => { console.error(error); process.exit(1); });`;
  try {
    await run(process.execPath, [...BASELINE_WASM_ONLY, '-e', script, dir]);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Could not create the embedded database in ${dir}${stderr ? `: ${stderr}` : ''}`);
  }
}

const PING = 'select 1';

/** The planner settings of the service's PostgreSQL connections, for PGlite's one session. */
export async function applyPlannerSettings(pglite: PGlite): Promise<void> {
  for (const [name, value] of Object.entries(PLANNER_SETTINGS)) await pglite.exec(`set ${name} = '${value}'`);
}

/** Wraps an already created PGlite (persistent, in memory, or cloned from a template). */
export async function wrapPglite(pglite: PGlite): Promise<Database> {
  await applyPlannerSettings(pglite);
  const statements = new PgliteStatements(pglite);
  const db = drizzlePglite({ client: statements.client, schema, casing: 'snake_case' }) as unknown as Db;
  attachPgliteStatements(db, statements);
  statements.register(PING);
  return {
    db,
    kind: 'pglite',
    pglite,
    ping: async () => {
      // A running transaction shows the database is up; a query would only wait for it to end, and a long
      // one (a large import, a batch at a time) would hold the health check as long.
      if (statements.inTransaction) return !pglite.closed;
      try {
        await statements.query(PING);
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      if (!pglite.closed) await pglite.close();
    },
    // One connection: NOTIFY reaches its own LISTEN when the notifying transaction commits.
    listen: async (channel, onNotify, onListen) => {
      const unlisten = await pglite.listen(channel, onNotify);
      onListen?.();
      return () => unlisten();
    },
  };
}
