import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
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
    /** The folder the service is compiled into for this run (see `test/helpers/server-process.ts`). */
    serverBuildDir: string;
  }
}

/**
 * Compiles the service once for the tests that run it as a process (as `npm start` does, into a folder
 * of its own): starting compiled code takes a fraction of loading the sources through tsx each time.
 */
async function buildServer(dir: string): Promise<void> {
  await promisify(execFile)(process.execPath, [
    'node_modules/typescript/bin/tsc',
    '-p',
    'tsconfig.build.json',
    '--outDir',
    dir,
  ]);
}

/** Builds the service and migrates one template database for the whole run; each test file clones it. */
export default async function setup(project: TestProject) {
  // One level below the project root, like `dist/`, so the compiled code finds `package.json` and
  // `drizzle/` where the sources do; one folder per run, as runs may overlap.
  const serverBuildDir = `.test-build-${process.pid}`;
  const [teardown] = await Promise.all([prepareTemplate(project), buildServer(serverBuildDir)]);
  project.provide('serverBuildDir', serverBuildDir);
  return async () => {
    await teardown();
    rmSync(serverBuildDir, { recursive: true, force: true });
  };
}

async function prepareTemplate(project: TestProject): Promise<() => void | Promise<void>> {
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
  const database = await wrapPglite(await PGlite.create());
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
