import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';

/**
 * A new `DATA_DIR` for a service process. On the embedded engine it already holds the run's migrated
 * template where the service keeps its database (`pg/`), as a first start would leave it, so the process
 * skips creating and migrating a database (seconds per start); with `DATABASE_URL` it is only for files.
 */
export async function newDataDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (!process.env.DATABASE_URL) {
    const pg = join(dir, 'pg');
    mkdirSync(pg, { mode: 0o700 });
    const template = new Blob([readFileSync(inject('dbTemplate'))]);
    const database = await PGlite.create({ dataDir: pg, loadDataDir: template });
    await database.close();
  }
  return dir;
}
