import { randomUUID } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../shared/private-files.ts';

/**
 * Writes `chunks` to `finalPath` so that the path only ever holds a complete file: the bytes go to a fresh file in
 * `tempDirectory` (same filesystem), are fsynced, and the file is renamed over `finalPath`; the directory entry
 * is fsynced too. On any failure the temporary file is removed and `finalPath` is untouched.
 */
export async function writeFileAtomically(
  tempDirectory: string,
  finalPath: string,
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ size: number }> {
  const tempPath = path.join(tempDirectory, `${randomUUID()}.part`);
  const file = await open(tempPath, 'wx', PRIVATE_FILE_MODE);
  let size = 0;
  try {
    try {
      for await (const chunk of chunks) {
        let offset = 0;
        while (offset < chunk.byteLength) {
          const { bytesWritten } = await file.write(chunk, offset, chunk.byteLength - offset);
          offset += bytesWritten;
        }
        size += chunk.byteLength;
      }
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tempPath, finalPath);
  } catch (error) {
    await unlink(tempPath).catch(() => {});
    throw error;
  }
  await syncDirectory(path.dirname(finalPath));
  return { size };
}

/** Makes a rename durable: without it a crash could forget the new directory entry. */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Some filesystems (and Windows) refuse fsync on directories; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => {});
  }
}
