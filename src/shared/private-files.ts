import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Folders and files under DATA_DIR are for the service's own user only. */
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** `mkdir` options for folders the service creates, missing parents included. */
export const PRIVATE_FOLDERS = { recursive: true, mode: PRIVATE_DIRECTORY_MODE } as const;

const GROUP_AND_OTHERS = 0o077;

/**
 * Sets `path` to `mode` when its group or others may use it; answers whether it had to. Modes are set
 * after creation too, since a umask only ever removes permissions.
 */
function tightenMode(path: string, mode: number): boolean {
  if ((statSync(path).mode & GROUP_AND_OTHERS) === 0) return false;
  chmodSync(path, mode);
  return true;
}

/** Makes `directory` (and any missing parents) readable by the owner only. */
export function makePrivateDirectory(directory: string): void {
  mkdirSync(directory, PRIVATE_FOLDERS);
  tightenMode(directory, PRIVATE_DIRECTORY_MODE);
}

/**
 * What the service keeps under DATA_DIR: the embedded database, the lock of the process that has it open,
 * local blobs and generated secrets.
 */
export const DATA_DIR_ENTRIES = {
  database: 'pg',
  lock: 'pg.lock',
  blobs: 'blobs',
  secrets: 'secrets.json',
} as const;

/**
 * Tightens DATA_DIR, its database and blobs folders and secrets.json to owner-only where any of them
 * exists with looser modes; answers the paths it changed.
 */
export function tightenDataDir(dataDir: string): string[] {
  const paths: [string, number][] = [
    [dataDir, PRIVATE_DIRECTORY_MODE],
    [join(dataDir, DATA_DIR_ENTRIES.database), PRIVATE_DIRECTORY_MODE],
    [join(dataDir, DATA_DIR_ENTRIES.blobs), PRIVATE_DIRECTORY_MODE],
    [join(dataDir, DATA_DIR_ENTRIES.secrets), PRIVATE_FILE_MODE],
  ];
  return paths.filter(([path, mode]) => existsSync(path) && tightenMode(path, mode)).map(([path]) => path);
}
