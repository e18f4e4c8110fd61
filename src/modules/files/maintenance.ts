import type { Db } from '../../db/client.ts';
import type { StoredPeaks } from '../../db/schema/index.ts';
import type { computePeaks } from '../../media/peaks.ts';
import { computePeaksIsolated } from '../../media/peaks-runner.ts';
import type { Clock } from '../../shared/clock.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { drainBlobDeletions } from './blob-deletions.ts';
import * as repo from './files.repository.ts';
import type { PeaksJobPayload } from './files.service.ts';
import { PENDING_PREFIX } from './keys.ts';

const BATCH = 500;
const SWEEP_PAGE = 500;

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Computes the waveform peaks of one audio file and records them, or records why it could not (a file that
 * cannot be decoded is marked failed with the reason; the file itself stays as it is).
 */
export async function computeFilePeaks(db: Db, store: BlobStore, payload: PeaksJobPayload): Promise<void> {
  const file = await repo.findFile(db, payload.teamId, payload.fileId);
  if (file?.peaksStatus !== 'pending') return;
  const content = await store.get(file.key);
  if (!content) {
    await repo.setPeaks(db, file.teamId, file.id, {
      status: 'failed',
      reason: 'unreadable',
      message: 'The file is missing from storage',
    });
    return;
  }
  let result: Awaited<ReturnType<typeof computePeaks>>;
  try {
    result = await computePeaksIsolated(content.stream, {
      hints: { contentType: file.contentType, size: file.size, fileName: file.originalName },
    });
  } finally {
    content.stream.destroy();
  }
  if (!result.ok) {
    await repo.setPeaks(db, file.teamId, file.id, {
      status: 'failed',
      reason: result.reason,
      message: result.message,
    });
    return;
  }
  const { peaks } = result;
  const stored: StoredPeaks = {
    format: peaks.format,
    sampleRate: peaks.sampleRate,
    durationSeconds: peaks.durationSeconds,
    bucketCount: peaks.bucketCount,
    min: peaks.min.map(round4),
    max: peaks.max.map(round4),
  };
  await repo.setPeaks(db, file.teamId, file.id, { status: 'ready', peaks: stored });
}

/** Removes the resumable uploads of tickets that are gone (see ResumableUploads.sweep); answers how many. */
export type ResumableSweep = {
  sweep(liveKeys: (keys: string[]) => Promise<Set<string>>, strayAfterSeconds: number): Promise<number>;
};

/**
 * Removes pending uploads whose time to be registered has passed (their bytes go with them), the resumable
 * uploads of tickets no longer there, then bytes under the pending prefix that no upload owns any more and
 * that are older than `strayAfterSeconds` (a presigned S3 URL replayed after registration can leave such
 * bytes). Returns what it removed.
 */
export async function cleanupPendingUploads(
  db: Db,
  store: BlobStore,
  clock: Clock,
  strayAfterSeconds: number,
  resumable?: ResumableSweep,
): Promise<{ expired: number; strays: number; resumable: number }> {
  let expired = 0;
  for (;;) {
    const removed = await repo.deleteExpiredPending(db, clock.now(), BATCH);
    expired += removed;
    if (removed < BATCH) break;
  }
  const resumableRemoved = resumable
    ? await resumable.sweep((keys) => repo.livePendingKeys(db, keys), strayAfterSeconds)
    : 0;
  const cutoff = clock.now().getTime() - strayAfterSeconds * 1000;
  let strays = 0;
  let page: string[] = [];
  const sweep = async () => {
    const live = await repo.livePendingKeys(db, page);
    for (const key of page) {
      if (live.has(key)) continue;
      await store.delete(key);
      strays++;
    }
    page = [];
  };
  for await (const entry of store.list(PENDING_PREFIX)) {
    if (entry.lastModified.getTime() > cutoff) continue;
    page.push(entry.key);
    if (page.length >= SWEEP_PAGE) await sweep();
  }
  await sweep();
  await drainBlobDeletions(db, store);
  return { expired, strays, resumable: resumableRemoved };
}

/** Deletes soft-deleted files whose purge time has come, and their blobs. Returns how many went. */
export async function purgeScheduledFiles(db: Db, store: BlobStore, clock: Clock): Promise<number> {
  let purged = 0;
  for (;;) {
    const removed = await repo.purgeDueFiles(db, clock.now(), BATCH);
    purged += removed;
    if (removed < BATCH) break;
  }
  await drainBlobDeletions(db, store);
  return purged;
}
