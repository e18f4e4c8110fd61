import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import postgres from 'postgres';
import { inject } from 'vitest';
import { type Database, openPostgres } from '../../src/db/client.ts';
import { wrapPglite } from '../../src/db/pglite-client.ts';
import { withDatabase } from '../global-setup.ts';

/**
 * Tables whose rows the migrations seed: kept when a database is handed to the next test file. The readers of the
 * event log keep their place: the positions the next file's events get (from a sequence nothing resets) all come
 * after it.
 */
const SEEDED_TABLES = ['plans', 'event_consumers'];

/**
 * Embedded databases released by earlier test files of this worker. Loading the template costs far more
 * than emptying a database that already has the schema, so a released one is emptied and handed out again.
 */
const released: Database[] = [];

async function emptied(database: Database): Promise<Database> {
  const pglite = database.pglite!;
  const { rows } = await pglite.query<{ tables: string }>(
    `select string_agg(format('%I', tablename), ', ') as tables from pg_tables
     where schemaname = 'public' and not (tablename = any($1))`,
    [SEEDED_TABLES],
  );
  await pglite.exec(`truncate ${rows[0]!.tables} restart identity cascade`);
  return database;
}

async function embeddedClone(template: string): Promise<Database> {
  const reused = released.pop();
  const database = reused
    ? await emptied(reused)
    : await wrapPglite(await PGlite.create({ loadDataDir: new Blob([readFileSync(template)]) }));
  let open = true;
  return {
    ...database,
    close: async () => {
      if (!open) return;
      open = false;
      released.push(database);
    },
  };
}

/**
 * A private copy of the migrated template: an embedded database holding nothing but the migrations'
 * seed rows, or a PostgreSQL database made from the template.
 */
export async function cloneDatabase(): Promise<Database & { url?: string }> {
  const template = inject('dbTemplate');
  const url = process.env.DATABASE_URL;
  if (!url) return embeddedClone(template);
  const name = `${template.replace('tpl', 't')}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const cloneUrl = withDatabase(url, name);
  return { ...openPostgres(cloneUrl, 5), url: cloneUrl };
}

/** The rows of a raw statement: postgres.js answers an array of them, PGlite an object holding them. */
export async function queryRows<T = Record<string, unknown>>(
  db: Pick<Database['db'], 'execute'>,
  query: SQL,
): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}
