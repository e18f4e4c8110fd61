import { randomBytes } from 'node:crypto';
import { copyFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { create, list, type ReadEntry } from 'tar';
import { DATA_DIR_ENTRIES, makePrivateDirectory, PRIVATE_FILE_MODE } from '../shared/private-files.ts';
import { linkBlobs } from './blob-links.ts';

/** What a backup holds besides its files: checked by `tmw backup` once written and by `tmw restore`. */
export type BackupManifest = {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  appVersion: string;
  /** Files under `blobs/` (content-type records included); 0 when blobs live in S3. */
  blobFiles: number;
  storageDriver: 'local' | 's3';
  /** Whether `secrets.json` is in the archive. */
  secretsFile: boolean;
  /** Secrets the service took from its environment: not in the archive, to be kept with it. */
  secretsFromEnvironment: string[];
};

export const FORMAT = 'tmw-backup';
/** The archive's entries, in order: the manifest comes last, so an archive that has it is whole. */
export const ARCHIVE = {
  database: 'database.tar',
  secrets: DATA_DIR_ENTRIES.secrets,
  blobs: 'blobs',
  manifest: 'manifest.json',
} as const;
const STAGE_PREFIX = '.backup-';

export type BackupSource = {
  pglite: PGlite;
  dataDir: string;
  appVersion: string;
  storageDriver: 'local' | 's3';
  secretsFromEnvironment: string[];
};

/** A snapshot staged under DATA_DIR: stream it once as a gzipped tar, then dispose of it. */
export type PreparedBackup = { manifest: BackupManifest; stream(): Readable; dispose(): Promise<void> };

/**
 * Snapshots the embedded database and the local blobs together: the database files are dumped and the
 * blobs linked while no statement can run, so every blob a row of the dump names is linked before any
 * request or job could learn (by reading the database) that it may delete it. Blobs written meanwhile may
 * be extra; none the dump refers to is missing. The database pauses for the dump and the links only: the
 * bytes are copied later, from the links.
 */
export async function prepareBackup(source: BackupSource): Promise<PreparedBackup> {
  const { pglite, dataDir } = source;
  await removeStaleStages(dataDir);
  const stage = join(dataDir, `${STAGE_PREFIX}${randomBytes(6).toString('hex')}`);
  makePrivateDirectory(stage);
  try {
    // Less to replay when the copy is opened; the dump below would be whole without it.
    await pglite.exec('CHECKPOINT');
    const linkTo = join(stage, ARCHIVE.blobs);
    const { dump, blobFiles } = await pglite._runExclusiveTransaction(async () => {
      const dump = await pglite.dumpDataDir('none');
      const blobFiles =
        source.storageDriver === 'local' ? await linkBlobs(join(dataDir, DATA_DIR_ENTRIES.blobs), linkTo) : 0;
      return { dump, blobFiles };
    });
    makePrivateDirectory(linkTo);
    await writeFile(join(stage, ARCHIVE.database), Buffer.from(await dump.arrayBuffer()), {
      mode: PRIVATE_FILE_MODE,
    });
    const secretsFile = await copyIfPresent(
      join(dataDir, DATA_DIR_ENTRIES.secrets),
      join(stage, ARCHIVE.secrets),
    );
    const manifest: BackupManifest = {
      format: FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      appVersion: source.appVersion,
      blobFiles,
      storageDriver: source.storageDriver,
      secretsFile,
      secretsFromEnvironment: source.secretsFromEnvironment,
    };
    await writeFile(join(stage, ARCHIVE.manifest), JSON.stringify(manifest, null, 2), {
      mode: PRIVATE_FILE_MODE,
    });
    // Files named one by one: tar adds a folder's contents after what follows it, the manifest included.
    const blobs = (await readdir(linkTo, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => relative(stage, join(entry.parentPath, entry.name)))
      .sort();
    const entries = [ARCHIVE.database, ...(secretsFile ? [ARCHIVE.secrets] : []), ...blobs, ARCHIVE.manifest];
    return {
      manifest,
      stream: () =>
        create(
          { gzip: true, cwd: stage, portable: true, noDirRecurse: true },
          entries,
        ) as unknown as Readable,
      dispose: () => rm(stage, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(stage, { recursive: true, force: true });
    throw error;
  }
}

/** Stages of backups cut short (the process holding DATA_DIR stopped mid-way): only one runs at a time. */
async function removeStaleStages(dataDir: string): Promise<void> {
  const names = await readdir(dataDir).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith(STAGE_PREFIX)) await rm(join(dataDir, name), { recursive: true, force: true });
  }
}

async function copyIfPresent(from: string, to: string): Promise<boolean> {
  try {
    await copyFile(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** An archive that is not a whole backup of this format: cut short, damaged, or something else. */
export class BadBackupError extends Error {}

/**
 * Reads the whole archive `file` (every byte: gzip and tar check themselves) and answers its manifest, once
 * the entries match it. Throws BadBackupError otherwise.
 */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  let manifestText = '';
  let last = '';
  let blobFiles = 0;
  let database = false;
  try {
    await list({
      file,
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        const path = entry.path.replace(/\/$/, '');
        last = path;
        if (path === ARCHIVE.database) database = true;
        if (path.startsWith(`${ARCHIVE.blobs}/`) && entry.type === 'File') blobFiles++;
        // Entries are read on after this call; the manifest's bytes are kept on the way.
        if (path === ARCHIVE.manifest)
          entry.on('data', (chunk: Buffer) => (manifestText += chunk.toString('utf8')));
      },
    });
  } catch (error) {
    throw new BadBackupError(`not a readable backup archive (${(error as Error).message})`);
  }
  if (last !== ARCHIVE.manifest || !database) throw new BadBackupError('the backup archive is incomplete');
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestText) as BackupManifest;
  } catch {
    throw new BadBackupError('the backup manifest is unreadable');
  }
  if (manifest.format !== FORMAT || manifest.version !== 1)
    throw new BadBackupError('not a backup of this service (or of a newer format)');
  if (manifest.blobFiles !== blobFiles)
    throw new BadBackupError(`the backup lists ${manifest.blobFiles} blob files but holds ${blobFiles}`);
  return manifest;
}
