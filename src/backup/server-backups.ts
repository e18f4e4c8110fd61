import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { BackupSource } from './backup-archive.ts';
import { type ControlSocket, openControlSocket } from './control-socket.ts';

/** What a backup of this process's data directory is made of. */
export function backupSourceOf(config: Config, pglite: PGlite): BackupSource {
  return {
    pglite,
    dataDir: config.dataDir,
    appVersion: config.version,
    storageDriver: config.storage.settings.STORAGE_DRIVER,
    // Not in DATA_DIR, so not in the backup: the operator keeps them with it.
    secretsFromEnvironment: [
      ...(config.secrets.tokenSecret ? ['TOKEN_SECRET'] : []),
      ...(config.secrets.urlSigningSecret ? ['URL_SIGNING_SECRET'] : []),
    ],
  };
}

/**
 * On the embedded database, the socket `tmw backup` reaches this process through (it holds DATA_DIR, so
 * nothing else can open the database); nothing with PostgreSQL, whose backups are pg_dump's.
 */
export async function openServerControlSocket(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
): Promise<ControlSocket | undefined> {
  const pglite = database.pglite;
  if (database.kind !== 'pglite' || !pglite) return undefined;
  const { prepareBackup } = await import('./backup-archive.ts');
  try {
    const socket = await openControlSocket(
      config.dataDir,
      async () => {
        log.info('backup requested');
        const prepared = await prepareBackup(backupSourceOf(config, pglite));
        log.info({ blobFiles: prepared.manifest.blobFiles }, 'backup snapshot taken');
        return prepared;
      },
      (error) => log.error({ err: error }, 'backup failed'),
    );
    if (!socket)
      log.warn('DATA_DIR path is too long for the control socket; tmw backup needs the server stopped');
    return socket;
  } catch (error) {
    log.warn({ err: error }, 'control socket unavailable; tmw backup needs the server stopped');
    return undefined;
  }
}
