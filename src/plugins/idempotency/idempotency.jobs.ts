import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import { deleteExpiredKeys } from './idempotency.repository.ts';

export const IDEMPOTENCY_CLEANUP_JOB = 'idempotency.deleteExpired';

const HOUR = 3_600_000;
const BATCH = 1_000;

/** Deletes every idempotency key expired by now, in batches; answers how many went. */
export async function deleteExpiredIdempotencyKeys(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  let deleted = 0;
  for (;;) {
    const gone = await deleteExpiredKeys(db, now, BATCH);
    deleted += gone;
    if (gone < BATCH) return deleted;
  }
}

/** The hourly removal of expired keys (an expired key is never replayed, whether or not it was removed). */
export function defineIdempotencyJobs(jobs: JobQueue, db: Db, clock: Clock): void {
  jobs.define(IDEMPOTENCY_CLEANUP_JOB, async () => {
    await deleteExpiredIdempotencyKeys(db, clock);
  });
  jobs.every(IDEMPOTENCY_CLEANUP_JOB, HOUR);
}
