import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { DATA_DIR_ENTRIES, makePrivateDirectory } from '../shared/private-files.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The Drizzle database every repository receives; the same type over PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle `db.transaction(async (tx) => ...)` passes; repositories accept `Db | DbTransaction`. */
export type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/** An open database: the Drizzle handle plus what the process needs to run and stop it. */
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Answers quickly whether the database takes queries. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` (PostgreSQL: one dedicated connection,
   * re-established after a loss, `onListen` called each time it listens); answers the way to stop.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<Unlisten>;
  /** The raw client, for migrations and test set-up. */
  pglite?: PGlite;
  sql?: postgres.Sql;
};

export type Unlisten = () => Promise<void>;

export type DatabaseOptions = { databaseUrl?: string | undefined; dataDir: string; poolSize?: number };

/** Opens PostgreSQL when a URL is given, else PGlite persisted under `<dataDir>/pg` (owner-only). */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  const dir = join(options.dataDir, DATA_DIR_ENTRIES.database);
  makePrivateDirectory(dir);
  // Loaded only here: PGlite's engine weighs tens of megabytes a PostgreSQL deployment never needs.
  const { openPglite } = await import('./pglite-client.ts');
  return openPglite(dir);
}

export function openPostgres(url: string, poolSize: number): Database {
  const sql = postgres(url, {
    max: poolSize,
    onnotice: () => {},
    connect_timeout: 5,
    idle_timeout: 30,
    connection: { application_name: 'team-music-workspace' },
  });
  const db = drizzlePostgres({ client: sql, schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    sql,
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
