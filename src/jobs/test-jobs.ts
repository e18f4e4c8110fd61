import { asc } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { cloneDatabase } from '../../test/helpers/database.ts';
import type { Database } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import type { Clock } from '../shared/clock.ts';
import { JobQueue, type JobQueueOptions } from './job-queue.ts';

/** A promise settled from outside, to hold a handler at a known point. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A private database for the test file, emptied of jobs before each test; queues made through it stop after each. */
export function useJobsDatabase() {
  let database: (Database & { url?: string }) | undefined;
  const queues: JobQueue[] = [];
  beforeAll(async () => {
    database = await cloneDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await current().db.delete(jobs);
  });
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((queue) => queue.stop()));
  });
  const current = () => {
    if (!database) throw new Error('The database is only available inside tests and hooks');
    return database;
  };
  return {
    get database() {
      return current();
    },
    get db() {
      return current().db;
    },
    queue(clock: Clock, options: JobQueueOptions = {}, db = current().db): JobQueue {
      const queue = new JobQueue(db, clock, { random: () => 0.5, ...options });
      queues.push(queue);
      return queue;
    },
    rows: () => current().db.select().from(jobs).orderBy(asc(jobs.runAt), asc(jobs.createdAt), asc(jobs.id)),
  };
}
