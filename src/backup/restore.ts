import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { extract, type ReadEntry } from 'tar';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { DATA_DIR_ENTRIES, makePrivateDirectory, PRIVATE_FILE_MODE } from '../shared/private-files.ts';
import { ARCHIVE, type BackupManifest, BadBackupError, verifyBackup } from './backup-archive.ts';
import { CONTROL_SOCKET } from './control-socket.ts';

/** DATA_DIR holds data already, and replacing it was not asked for. */
export class DataDirNotEmptyError extends Error {}

const STAGE_PREFIX = '.restore-';

/** What `tmw restore` replaces with `--force`; anything else in DATA_DIR is left alone. */
const REPLACED = [
  DATA_DIR_ENTRIES.database,
  DATA_DIR_ENTRIES.blobs,
  DATA_DIR_ENTRIES.secrets,
  CONTROL_SOCKET,
];

const allowed = (path: string, entry: ReadEntry | Stats) =>
  'type' in entry &&
  (entry.type === 'File' || entry.type === 'Directory') &&
  (path === ARCHIVE.database ||
    path === ARCHIVE.secrets ||
    path === ARCHIVE.manifest ||
    path.replace(/\/$/, '') === ARCHIVE.blobs ||
    path.startsWith(`${ARCHIVE.blobs}/`));

/**
 * Restores the backup `file` into `dataDir`, holding the directory's lock throughout (so never under a
 * running server). The archive is checked whole before anything is touched, unpacked beside the data and
 * moved into place once the database opens from it.
 */
export async function restoreBackup(file: string, dataDir: string, force: boolean): Promise<BackupManifest> {
  makePrivateDirectory(dataDir);
  const lock = lockDataDir(join(dataDir, DATA_DIR_ENTRIES.lock), 'tmw restore');
  const stage = join(dataDir, `${STAGE_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    for (const name of readdirSync(dataDir))
      if (name.startsWith(STAGE_PREFIX)) rmSync(join(dataDir, name), { recursive: true, force: true });
    const present = readdirSync(dataDir).filter((name) => name !== DATA_DIR_ENTRIES.lock);
    if (present.length > 0 && !force)
      throw new DataDirNotEmptyError(
        `the data directory is not empty (${present.join(', ')}); restore into an empty one, or pass --force to replace its database, blobs and secrets`,
      );
    const manifest = await verifyBackup(file);
    makePrivateDirectory(stage);
    await extract({
      file,
      cwd: stage,
      strict: true,
      filter: allowed,
      fmode: PRIVATE_FILE_MODE,
      dmode: 0o700,
    });
    const database = join(stage, DATA_DIR_ENTRIES.database);
    makePrivateDirectory(database);
    await loadDatabase(join(stage, ARCHIVE.database), database);
    for (const name of REPLACED) rmSync(join(dataDir, name), { recursive: true, force: true });
    renameSync(database, join(dataDir, DATA_DIR_ENTRIES.database));
    const blobs = join(stage, ARCHIVE.blobs);
    if (existsSync(blobs)) renameSync(blobs, join(dataDir, DATA_DIR_ENTRIES.blobs));
    if (manifest.secretsFile) {
      const secrets = join(dataDir, DATA_DIR_ENTRIES.secrets);
      renameSync(join(stage, ARCHIVE.secrets), secrets);
      chmodSync(secrets, PRIVATE_FILE_MODE);
    }
    return manifest;
  } finally {
    rmSync(stage, { recursive: true, force: true });
    lock.release();
  }
}

/** Opens the dumped database files into `target` once, so a damaged dump fails here and not at start. */
async function loadDatabase(dump: string, target: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  let pglite: InstanceType<typeof PGlite>;
  try {
    pglite = await PGlite.create({ dataDir: target, loadDataDir: new Blob([readFileSync(dump)]) });
  } catch (error) {
    throw new BadBackupError(`the backup's database does not open (${(error as Error).message})`);
  }
  try {
    await pglite.query('select 1');
  } finally {
    await pglite.close();
  }
}
