import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { list } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareBackup, verifyBackup } from './backup-archive.ts';

let dir: string;
let pglite: PGlite;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tmw-backup-archive-'));
  pglite = await PGlite.create();
  await pglite.exec('create table kept (id int); insert into kept values (1)');
});
afterAll(async () => {
  await pglite.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every file of the archive with its bytes. */
async function contents(file: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  await list({
    file,
    onReadEntry: (entry) => {
      let text = '';
      entry.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      entry.on('end', () => files.set(entry.path, text));
    },
  });
  return files;
}

describe('prepareBackup', () => {
  it('keeps the blobs of its snapshot even when they are deleted before the archive is written', async () => {
    const dataDir = join(dir, 'data');
    const blobs = join(dataDir, 'blobs');
    for (const folder of ['teams/1/audio', 'pending/1', '.meta/teams/1/audio', '.tmp'])
      mkdirSync(join(blobs, folder), { recursive: true });
    writeFileSync(join(blobs, 'teams/1/audio/take.wav'), 'the take');
    writeFileSync(join(blobs, '.meta/teams/1/audio/take.wav.json'), '{"contentType":"audio/wav"}');
    writeFileSync(join(blobs, 'pending/1/upload'), 'not yet registered');
    writeFileSync(join(blobs, '.tmp/interrupted'), 'never a blob');
    writeFileSync(join(dataDir, 'secrets.json'), '{"tokenSecret":"t","urlSigningSecret":"u"}');

    const prepared = await prepareBackup({
      pglite,
      dataDir,
      appVersion: '1.2.3',
      storageDriver: 'local',
      secretsFromEnvironment: ['URL_SIGNING_SECRET'],
    });
    // A purge right after the snapshot, and a blob written after it.
    rmSync(join(blobs, 'teams/1/audio/take.wav'));
    writeFileSync(join(blobs, 'teams/1/audio/later.wav'), 'after the snapshot');
    const archive = join(dir, 'backup.tar.gz');
    try {
      await pipeline(prepared.stream(), createWriteStream(archive));
    } finally {
      await prepared.dispose();
    }

    expect(readdirSync(dataDir).sort()).toEqual(['blobs', 'secrets.json']);
    expect(await verifyBackup(archive)).toEqual({
      ...prepared.manifest,
      blobFiles: 3,
      secretsFile: true,
      secretsFromEnvironment: ['URL_SIGNING_SECRET'],
    });
    const files = await contents(archive);
    expect([...files.keys()]).toEqual([
      'database.tar',
      'secrets.json',
      'blobs/.meta/teams/1/audio/take.wav.json',
      'blobs/pending/1/upload',
      'blobs/teams/1/audio/take.wav',
      'manifest.json',
    ]);
    expect(files.get('blobs/teams/1/audio/take.wav')).toBe('the take');
    expect(files.get('secrets.json')).toContain('tokenSecret');
  });
});
