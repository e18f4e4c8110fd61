import { lstat, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FOLDERS } from '../shared/private-files.ts';
import { assertValidBlobKey } from './blob-key.ts';
import { InvalidBlobKeyError } from './errors.ts';

function isInside(realRoot: string, candidate: string): boolean {
  return candidate === realRoot || candidate.startsWith(realRoot + path.sep);
}

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function deepestExisting(directory: string): Promise<string> {
  let current = directory;
  for (;;) {
    try {
      await lstat(current);
      return current;
    } catch (error) {
      if (!isMissing(error)) throw error;
      const parent = path.dirname(current);
      if (parent === current) return current;
      current = parent;
    }
  }
}

async function assertRealPathInside(realRoot: string, key: string, directory: string): Promise<void> {
  const real = await realpath(directory);
  if (!isInside(realRoot, real)) throw new InvalidBlobKeyError(key, 'resolves outside the storage root');
}

/**
 * The file path of `key` under `realRoot` (which must already be a real path), refusing any key whose
 * directory is, or passes through, a symbolic link leading out of the root. With `createParents` the missing
 * directories are made — but only after the deepest existing one was checked, so mkdir never follows a link
 * out of the root. The last path component itself is not resolved: callers open it without following links.
 */
export async function resolveBlobPath(
  realRoot: string,
  key: string,
  options: { createParents?: boolean; suffix?: string } = {},
): Promise<string> {
  assertValidBlobKey(key);
  const target = path.resolve(realRoot, ...key.split('/')) + (options.suffix ?? '');
  const relative = path.relative(realRoot, target);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new InvalidBlobKeyError(key, 'resolves outside the storage root');
  }
  const parent = path.dirname(target);
  if (options.createParents) {
    await assertRealPathInside(realRoot, key, await deepestExisting(parent));
    await mkdir(parent, PRIVATE_FOLDERS);
    await assertRealPathInside(realRoot, key, parent);
    return target;
  }
  try {
    await assertRealPathInside(realRoot, key, parent);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  return target;
}
