import type { Dirent } from 'node:fs';
import { copyFile, link, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FOLDERS } from '../shared/private-files.ts';

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
// Filesystems without hard links (or a blobs folder mounted apart from DATA_DIR) get copies instead.
const NO_LINKS = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

/**
 * Registration moves bytes from under `pending/` to their final key while a backup runs, so those folders
 * are walked before the rest: a file moved before its pending folder is read is at its final key by the
 * time the final keys are walked, and one moved later was already linked.
 */
const WALKED_FIRST = ['pending', join('.meta', 'pending')];
/** Interrupted writes, never blobs. */
const NEVER = ['.tmp'];

/**
 * Hard-links every file of the local blob folder `root` into `target` (same relative paths): cheap, and
 * each link keeps its bytes even if the blob is deleted or replaced right after. Answers how many files.
 */
export async function linkBlobs(root: string, target: string): Promise<number> {
  let files = 0;
  const visit = async (relative: string, skip: ReadonlySet<string>): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, relative), { withFileTypes: true });
    } catch (error) {
      if (missing(error)) return;
      throw error;
    }
    await mkdir(join(target, relative), PRIVATE_FOLDERS);
    for (const entry of entries) {
      const path = join(relative, entry.name);
      if (skip.has(path)) continue;
      if (entry.isDirectory()) await visit(path, skip);
      else if (entry.isFile() && (await linkOrCopy(join(root, path), join(target, path)))) files++;
    }
  };
  for (const first of WALKED_FIRST) await visit(first, new Set());
  await visit('', new Set([...WALKED_FIRST, ...NEVER]));
  return files;
}

/** Links (or copies) one file; false when it went away in the meantime (deleted, or moved on). */
async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if (missing(error)) return false;
    if (!NO_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
  try {
    await copyFile(from, to);
    return true;
  } catch (error) {
    if (missing(error)) return false;
    throw error;
  }
}
