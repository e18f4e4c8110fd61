import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import type * as schema from './schema/index.ts';

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
  /** PostgreSQL: this process's pool, whose connections carry `applicationName` (with the process id). */
  pool?: { size: number; applicationName: string };
};

export type Unlisten = () => Promise<void>;
