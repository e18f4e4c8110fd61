import type { Db } from '../../db/client.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { nextBlobDeletions, recordBlobDeletionFailure, removeBlobDeletions } from './files.repository.ts';

const BATCH = 200;

/**
 * Removes the blobs queued in blob_deletions (rows were queued by the triggers in the same transaction as
 * the deletion that orphaned them). Deleting a missing blob succeeds, so two drains racing do no harm; a
 * failure stays queued with its error for the next drain. With `keys`, only those (what one request just
 * deleted, so a request never works through a backlog). Returns how many blobs were removed.
 */
export async function drainBlobDeletions(
  db: Db,
  store: BlobStore,
  options: { keys?: string[]; maxBatches?: number } = {},
): Promise<number> {
  const { keys, maxBatches = 50 } = options;
  if (keys?.length === 0) return 0;
  let removed = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const queued = await nextBlobDeletions(db, BATCH, keys);
    if (queued.length === 0) break;
    const done: number[] = [];
    let failed = 0;
    for (const entry of queued) {
      try {
        await store.delete(entry.key);
        done.push(entry.id);
      } catch (error) {
        failed++;
        await recordBlobDeletionFailure(db, entry.id, error instanceof Error ? error.message : String(error));
      }
    }
    await removeBlobDeletions(db, done);
    removed += done.length;
    // Only failures left: they wait for the next run instead of being retried in a tight loop.
    if (failed > 0 && done.length === 0) break;
    if (queued.length < BATCH) break;
  }
  return removed;
}
