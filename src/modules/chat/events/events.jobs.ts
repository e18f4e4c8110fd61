import type { Db } from '../../../db/client.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { Clock } from '../../../shared/clock.ts';
import { deleteEventsBefore, deleteTeamlessThreads, deleteTypingBefore } from './events.repository.ts';

export const CHAT_CLEANUP_JOB = 'chat.deleteExpired';

/** How long events are kept for `Last-Event-ID` resumes. */
export const EVENT_RETENTION_MS = 24 * 3_600_000;

const HOUR = 3_600_000;
const BATCH = 1_000;

/**
 * Deletes events past their day, typing marks that ran out and threads whose teams were all deleted;
 * answers how many events went.
 */
export async function deleteExpiredChatRows(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  await deleteTypingBefore(db, now);
  await deleteTeamlessThreads(db);
  const before = new Date(now.getTime() - EVENT_RETENTION_MS);
  let deleted = 0;
  for (;;) {
    const gone = await deleteEventsBefore(db, before, BATCH);
    deleted += gone;
    if (gone < BATCH) return deleted;
  }
}

/** The hourly cleanup of chat. */
export function defineChatJobs(jobs: JobQueue, db: Db, clock: Clock): void {
  jobs.define(CHAT_CLEANUP_JOB, async () => {
    await deleteExpiredChatRows(db, clock);
  });
  jobs.every(CHAT_CLEANUP_JOB, HOUR);
}
