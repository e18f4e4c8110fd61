import { and, asc, inArray, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import { revokeKeysCreatedBy } from '../api-keys/api-keys.repository.ts';
import type { Departures } from '../memberships/departures.ts';
import { PURGE_AFTER_DAYS } from './account.service.ts';

export const ACCOUNT_JOBS = { purgeDeleted: 'users.purgeDeletedAccounts' } as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BATCH = 100;

/**
 * Deletes the accounts whose deletion was requested more than PURGE_AFTER_DAYS ago. Their sessions, push
 * tokens and reactions go with the row; what they wrote in teams (tracks, comments, activity) stays,
 * no longer naming them, and the team API keys they created are revoked first (a key whose creator is
 * unknown would otherwise outlive them). Answers how many accounts went.
 */
export async function purgeDeletedAccounts(db: Db, clock: Clock, departures: Departures): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - PURGE_AFTER_DAYS * DAY);
  const due = and(isNotNull(users.deletionRequestedAt), lt(users.deletionRequestedAt, cutoff));
  let purged = 0;
  for (;;) {
    const gone = await db.transaction(async (tx) => {
      // Locked rows are another process's batch.
      const batch = await tx
        .select({ id: users.id })
        .from(users)
        .where(due)
        .orderBy(asc(users.deletionRequestedAt))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      const ids = batch.map((row) => row.id);
      if (ids.length === 0) return [];
      const at = clock.now();
      const keys = await revokeKeysCreatedBy(tx, ids, at);
      await departures.keysRevoked(tx, { keys, reason: 'account_deleted', at });
      return tx.delete(users).where(inArray(users.id, ids)).returning({ id: users.id });
    });
    purged += gone.length;
    if (gone.length < BATCH) return purged;
  }
}

/** The users area's background work: the hourly purge of accounts past their deletion grace period. */
export function defineAccountJobs(jobs: JobQueue, db: Db, clock: Clock, departures: Departures): void {
  jobs.define(ACCOUNT_JOBS.purgeDeleted, async () => {
    await purgeDeletedAccounts(db, clock, departures);
  });
  jobs.every(ACCOUNT_JOBS.purgeDeleted, HOUR);
}
