import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import { defineNotificationJobs } from './follow-ups-due.jobs.ts';
import { NotificationsService } from './notifications.service.ts';

/** The notifications of one process: reads and marks, and the job that tells of follow-ups falling due. */
export function createNotificationsService(db: Db, clock: Clock, jobs: JobQueue): NotificationsService {
  defineNotificationJobs(jobs, db, clock);
  return new NotificationsService(db, clock);
}
