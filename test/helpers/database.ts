import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { inject } from 'vitest';
import { type Database, openPostgres, wrapPglite } from '../../src/db/client.ts';
import { withDatabase } from '../global-setup.ts';

/** A private copy of the migrated template: PGlite in memory, or a PostgreSQL database made from the template. */
export async function cloneDatabase(): Promise<Database & { url?: string }> {
  const template = inject('dbTemplate');
  const url = process.env.DATABASE_URL;
  if (!url) {
    const pglite = await PGlite.create({ loadDataDir: new Blob([readFileSync(template)]) });
    return wrapPglite(pglite);
  }
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
