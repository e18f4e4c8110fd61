import { createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BackupManifest, prepareBackup, verifyBackup } from '../backup/backup-archive.ts';
import { ControlSocketError, requestBackup } from '../backup/control-socket.ts';
import { restoreBackup } from '../backup/restore.ts';
import { backupSourceOf } from '../backup/server-backups.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { DATA_DIR_ENTRIES, PRIVATE_FILE_MODE } from '../shared/private-files.ts';
import { CommandError, UsageError } from './failures.ts';

export const BACKUP_USAGE = `  backup FILE [--force]                               write a backup of DATA_DIR (database, blobs, secrets) to FILE
                                                      (asks the running server for it when one holds DATA_DIR)
  restore FILE [--force]                              restore a backup into an empty DATA_DIR (--force: replace)`;

export const BACKUP_COMMANDS = ['backup', 'restore'];

const POSTGRES_BACKUP =
  'DATABASE_URL is set: tmw backs up the embedded database only. Back up PostgreSQL with pg_dump (or your ' +
  "provider's snapshots) and the blob store with its own tools (the S3 bucket, or DATA_DIR/blobs), and keep " +
  'TOKEN_SECRET and URL_SIGNING_SECRET with them';

type Options = Record<string, string | string[] | boolean | undefined>;

/** `tmw backup FILE` and `tmw restore FILE`: they open the database themselves (or ask the server). */
export async function backupCommand(config: Config, command: string[], options: Options): Promise<string> {
  const [name, file, ...extra] = command;
  if (!file || extra.length > 0) throw new UsageError(`${name} takes one FILE`);
  if (config.databaseUrl) throw new CommandError(POSTGRES_BACKUP);
  const force = options.force === true;
  if (name === 'restore') {
    if (!existsSync(file)) throw new CommandError(`no such file: ${file}`);
    const manifest = await restoreBackup(file, config.dataDir, force);
    return [
      `restored the backup of ${manifest.createdAt} into ${resolve(config.dataDir)}`,
      ...notes(manifest),
    ].join('\n');
  }
  if (existsSync(file) && !force) throw new CommandError(`${file} exists; pass --force to replace it`);
  if (!existsSync(join(config.dataDir, DATA_DIR_ENTRIES.database, 'PG_VERSION')))
    throw new CommandError(`there is no embedded database in ${resolve(config.dataDir)}`);
  const partial = `${file}.partial-${process.pid}`;
  try {
    const manifest = await writeBackup(config, createWriteStream(partial, { mode: PRIVATE_FILE_MODE }));
    await verifyBackup(partial);
    renameSync(partial, file);
    const blobs =
      manifest.storageDriver === 'local' ? `${manifest.blobFiles} blob files` : 'blobs in S3 not included';
    return [`backup written to ${file} (${blobs})`, ...notes(manifest)].join('\n');
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Makes the backup here when DATA_DIR is free, or has the server holding it make one. */
async function writeBackup(config: Config, out: NodeJS.WritableStream): Promise<BackupManifest> {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(config, 'tmw backup');
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    let answer: Awaited<ReturnType<typeof requestBackup>>;
    try {
      answer = await requestBackup(config.dataDir);
    } catch (failure) {
      if (failure instanceof ControlSocketError)
        throw new CommandError(`${error.message}; and ${failure.message}`);
      throw failure;
    }
    await pipeline(answer.archive, out);
    return answer.manifest;
  }
  try {
    const prepared = await prepareBackup(backupSourceOf(config, database.pglite!));
    try {
      await pipeline(prepared.stream() as Readable, out);
    } finally {
      await prepared.dispose();
    }
    return prepared.manifest;
  } finally {
    await database.close();
  }
}

function notes(manifest: BackupManifest): string[] {
  return [
    ...(manifest.secretsFromEnvironment.length > 0
      ? [
          `note: ${manifest.secretsFromEnvironment.join(' and ')} came from the environment and are not in the backup; keep them with it`,
        ]
      : []),
    ...(manifest.storageDriver === 's3'
      ? ['note: the blobs are in S3; back up the bucket with its own tools']
      : []),
  ];
}
