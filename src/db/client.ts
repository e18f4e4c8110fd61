import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { DATA_DIR_ENTRIES, makePrivateDirectory, PRIVATE_FOLDERS } from '../shared/private-files.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { Database, Db } from './database.ts';
import { PLANNER_SETTINGS } from './planner-settings.ts';
import * as schema from './schema/index.ts';

// Kept apart so that the PGlite client, which this module loads, takes them without importing it back.
export type { Database, Db, DbTransaction, Schema, Unlisten } from './database.ts';

export type DatabaseOptions = {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL connections of this process (DATABASE_POOL_SIZE). */
  databasePoolSize?: number;
  /** The embedded database's engine optimized by V8: faster queries, more memory (EMBEDDED_DB_OPTIMIZE). */
  embeddedDbOptimized?: boolean;
};

/**
 * Opens PostgreSQL when a URL is given, else PGlite persisted under `<dataDir>/pg` (owner-only), locked for
 * this process until it closes: a second process on the same files would lose one side's writes, so it gets
 * DataDirLockedError naming the holder (`holder` is how this process is named to it).
 */
export async function openDatabase(options: DatabaseOptions, holder?: string): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.databasePoolSize ?? 10);
  mkdirSync(options.dataDir, PRIVATE_FOLDERS);
  const lock = lockDataDir(join(options.dataDir, DATA_DIR_ENTRIES.lock), holder);
  try {
    const dir = join(options.dataDir, DATA_DIR_ENTRIES.database);
    makePrivateDirectory(dir);
    // Loaded only here: PGlite's engine weighs tens of megabytes a PostgreSQL deployment never needs.
    const { openPglite } = await import('./pglite-client.ts');
    const database = await openPglite(dir, { optimized: options.embeddedDbOptimized ?? false });
    return {
      ...database,
      close: async () => {
        try {
          await database.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

export function openPostgres(url: string, poolSize: number): Database {
  // The process id tells the connections of each process apart (pg_stat_activity, the pool metric).
  const applicationName = `team-music-workspace/${process.pid}`;
  const sql = postgres(url, {
    max: poolSize,
    onnotice: () => {},
    connect_timeout: 5,
    idle_timeout: 30,
    connection: { application_name: applicationName, ...PLANNER_SETTINGS },
  });
  const db = drizzlePostgres({
    client: preparingStatements(sql),
    schema,
    casing: 'snake_case',
  }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    sql,
    pool: { size: poolSize, applicationName },
    ping: async () => {
      try {
        await withTimeout(sql`select 1`, 2000);
        return true;
      } catch {
        return false;
      }
    },
    close: () => sql.end({ timeout: 5 }),
    listen: async (channel, onNotify, onListen) => (await sql.listen(channel, onNotify, onListen)).unlisten,
  };
}

/** Statements with more parameters than this are mostly bulk writes whose text changes with their size. */
const MAX_PREPARED_PARAMETERS = 64;

type Unsafe = postgres.Sql['unsafe'];

// Without parameters a text may hold several statements (migrations), which cannot be prepared.
const preparable = (parameters: number) => parameters > 0 && parameters <= MAX_PREPARED_PARAMETERS;

/**
 * The client Drizzle is given: Drizzle sends every statement it was not asked to name unprepared, which the
 * database parses, describes and plans again on every call (two round trips when it has parameters). Here
 * they go through the driver's own per-connection statement cache instead: parsed and planned once per
 * connection, then one round trip. Transactions and savepoints hand out clients that do the same.
 */
function preparingStatements<T extends Pick<postgres.Sql, 'unsafe'>>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        const unsafe: Unsafe = (query, parameters, options) =>
          target.unsafe(query, parameters, {
            ...options,
            prepare: preparable(parameters?.length ?? 0),
          });
        return unsafe;
      }
      if (property === 'begin' || property === 'savepoint') {
        const open = Reflect.get(target, property, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) =>
          open(
            ...args.map((arg) =>
              typeof arg === 'function'
                ? (tx: T) => (arg as (tx: T) => unknown)(preparingStatements(tx))
                : arg,
            ),
          );
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

async function withTimeout<T>(promise: PromiseLike<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
