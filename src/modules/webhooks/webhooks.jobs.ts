import type { Db } from '../../db/client.ts';
import { deleteInBatches } from '../../jobs/batched-deletes.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import { DELIVER_JOB, type DeliverPayload, deleteSettledBefore } from './deliveries.repository.ts';
import { type DeliveryDeps, deliver } from './delivery.ts';

export const DELIVERY_RETENTION_JOB = 'webhooks.deleteExpiredDeliveries';
const DAY = 24 * 3_600_000;
const RETENTION_EVERY_MS = 15 * 60_000;

/**
 * A run of an endpoint's deliveries: batches of at most the timeout each, the writes after them quick (a running
 * handler renews its lease every third of it). A process that dies hands its runs over once they expire.
 */
const DELIVER_LEASE_MS = 15_000;

/**
 * The webhooks' delivery runs. Failures of a receiver are recorded and retried on the webhook schedule by the
 * handler itself; the queue's own retries only cover the database failing under a handler.
 */
export function defineWebhookJobs(queue: JobQueue, deps: DeliveryDeps): void {
  queue.define<DeliverPayload>(DELIVER_JOB, (payload, { signal }) => deliver(deps, payload, signal), {
    maxAttempts: 10,
    backoffMs: 5_000,
    leaseMs: Math.max(DELIVER_LEASE_MS, deps.timeoutMs * 1.5),
  });
}

/** Removes settled delivery attempts older than `days`, in batches, every quarter of an hour. */
export function defineDeliveryRetention(jobs: JobQueue, deps: { db: Db; clock: Clock; days: number }): void {
  jobs.define(DELIVERY_RETENTION_JOB, async () => {
    const before = new Date(deps.clock.now().getTime() - deps.days * DAY);
    await deleteInBatches((limit) => deleteSettledBefore(deps.db, before, limit));
  });
  jobs.every(DELIVERY_RETENTION_JOB, RETENTION_EVERY_MS);
}
