import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { wrapPglite } from '../src/db/pglite-client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: path of the migrated template's dump. PostgreSQL: name of the migrated template database. */
    dbTemplate: string;
  }
}

/** Migrates one template database for the whole run; each test file clones it. */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `tmw_tpl_${randomBytes(4).toString('hex')}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const template = openPostgres(withDatabase(url, name), 2);
    await runMigrations(template);
    await template.close();
    project.provide('dbTemplate', name);
    return async () => {
      const clones = await admin<{ datname: string }[]>`
        select datname from pg_database where datname like ${`${name.replace('tpl', 't')}%`} or datname = ${name}`;
      for (const { datname } of clones) await admin.unsafe(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }
  const dir = join(process.cwd(), '.tmp');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `template-${process.pid}.tar`);
  const database = wrapPglite(await PGlite.create());
  await runMigrations(database);
  const dump = await database.pglite!.dumpDataDir('none');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('dbTemplate', file);
  return () => rmSync(file, { force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
