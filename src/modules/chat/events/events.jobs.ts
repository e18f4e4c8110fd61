import type { Db } from '../../../db/client.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { Clock } from '../../../shared/clock.ts';
import { deleteTeamlessThreads, deleteTypingBefore } from './events.repository.ts';

export const CHAT_CLEANUP_JOB = 'chat.deleteExpired';

const HOUR = 3_600_000;

/**
 * Deletes typing marks that ran out and threads whose teams were all deleted (the stream's events are the
 * event log's, kept by its own retention).
 */
export async function deleteExpiredChatRows(db: Db, clock: Clock): Promise<void> {
  await deleteTypingBefore(db, clock.now());
  await deleteTeamlessThreads(db);
}

/** The hourly cleanup of chat. */
export function defineChatJobs(jobs: JobQueue, db: Db, clock: Clock): void {
  jobs.define(CHAT_CLEANUP_JOB, async () => {
    await deleteExpiredChatRows(db, clock);
  });
  jobs.every(CHAT_CLEANUP_JOB, HOUR);
}
