import type { Db } from '../../db/client.ts';
import { type JobQueue, MEDIA_POOL } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { drainBlobDeletions } from './blob-deletions.ts';
import { setPeaks } from './files.repository.ts';
import { type FilesSettings, PEAKS_JOB, type PeaksJobPayload } from './files.service.ts';
import {
  cleanupPendingUploads,
  computeFilePeaks,
  purgeScheduledFiles,
  type ResumableSweep,
} from './maintenance.ts';

export const FILES_JOBS = {
  peaks: PEAKS_JOB,
  cleanupPending: 'files.cleanupPending',
  drainDeletions: 'files.drainDeletions',
  purgeScheduled: 'files.purgeScheduled',
} as const;

const PEAKS_ATTEMPTS = 3;
const MINUTE = 60_000;

type Dependencies = {
  db: Db;
  clock: Clock;
  store: BlobStore;
  settings: FilesSettings;
  /** Resumable uploads, whose uploads go with their expired tickets. */
  resumable?: ResumableSweep;
};

/**
 * The files area's background work: waveform peaks per audio file, and recurring cleanup — expired pending
 * uploads, queued blob deletions (e.g. after a team was deleted with its files), soft-deleted files due.
 */
export function defineFilesJobs(
  jobs: JobQueue,
  { db, clock, store, settings, resumable }: Dependencies,
): void {
  jobs.define<PeaksJobPayload>(
    FILES_JOBS.peaks,
    async (payload, context) => {
      try {
        await computeFilePeaks(db, store, payload);
      } catch (error) {
        // Decoding problems are recorded by computeFilePeaks; this is storage or the database failing.
        if (context.attempt < PEAKS_ATTEMPTS) throw error;
        await setPeaks(db, payload.teamId, payload.fileId, {
          status: 'failed',
          reason: 'unreadable',
          message: error instanceof Error ? error.message : String(error),
        });
      }
    },
    { maxAttempts: PEAKS_ATTEMPTS, backoffMs: 30_000, leaseMs: 30 * MINUTE, pool: MEDIA_POOL },
  );
  jobs.define(FILES_JOBS.cleanupPending, async () => {
    await cleanupPendingUploads(db, store, clock, settings.uploadUrlTtlSeconds, resumable);
  });
  jobs.define(FILES_JOBS.drainDeletions, async () => {
    await drainBlobDeletions(db, store);
  });
  jobs.define(FILES_JOBS.purgeScheduled, async () => {
    await purgeScheduledFiles(db, store, clock);
  });
  jobs.every(FILES_JOBS.cleanupPending, Math.min(10 * MINUTE, (settings.pendingUploadTtlSeconds * 1000) / 2));
  jobs.every(FILES_JOBS.drainDeletions, MINUTE);
  jobs.every(FILES_JOBS.purgeScheduled, 10 * MINUTE);
}
