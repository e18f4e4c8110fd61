import { fileURLToPath } from 'node:url';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { Database } from './client.ts';

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

// Any constant works; it only has to be the same for every process of the service.
const MIGRATION_LOCK = 7_305_114_221;

/** Applies the committed SQL migrations; on PostgreSQL under an advisory lock so parallel starts are safe. */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  const client = database.sql!;
  // The lock lives on one reserved connection while the migrator uses the rest of the pool.
  const reserved = await client.reserve();
  try {
    await reserved`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(database.db as unknown as PostgresJsDatabase, { migrationsFolder });
  } finally {
    await reserved`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    reserved.release();
  }
}
