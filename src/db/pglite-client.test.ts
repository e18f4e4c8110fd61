import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './pglite-client.ts';

describe.skipIf(process.env.DATABASE_URL)('the embedded database', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'tmw-pglite-')), 'pg');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const opened = async <T>(work: (pglite: PGlite) => Promise<T>): Promise<T> => {
    const database = await openPglite(dir);
    try {
      return await work(database.pglite!);
    } finally {
      await database.close();
    }
  };
  const sharedBuffers = (pglite: PGlite) =>
    pglite
      .query<{ shared_buffers: string }>('show shared_buffers')
      .then(({ rows }) => rows[0]!.shared_buffers);

  it('is created in an empty directory, keeps what it was given and runs with small shared buffers', async () => {
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(false);
    const first = await opened(async (pglite) => {
      await pglite.exec('create table kept (id int); insert into kept values (1)');
      return sharedBuffers(pglite);
    });
    expect(first).toBe('16MB');
    const later = await opened(async (pglite) => ({
      buffers: await sharedBuffers(pglite),
      rows: (await pglite.query('select id from kept')).rows,
    }));
    expect(later).toEqual({ buffers: '16MB', rows: [{ id: 1 }] });
  });
});
