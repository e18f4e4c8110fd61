import type { JobQueue } from '../../jobs/job-queue.ts';
import { DELIVER_JOB, type DeliverPayload, type DeliveryDeps, deliver, fanOut } from './delivery.ts';
import { FANOUT_JOB, type FanoutPayload } from './outbox.ts';

/**
 * Leases: a fan-out is a few statements, a delivery at most its timeout plus the writes after it (a running
 * handler renews its lease every third of it). A process that dies hands its jobs over once they expire.
 */
const FANOUT_LEASE_MS = 15_000;
const DELIVER_LEASE_MS = 15_000;

/**
 * The webhooks' background work. Failures of a receiver are recorded and retried on the webhook schedule by the
 * handler itself; the queue's own retries only cover the database failing under a handler.
 */
export function defineWebhookJobs(jobs: JobQueue, deps: DeliveryDeps): void {
  jobs.define<FanoutPayload>(
    FANOUT_JOB,
    async (payload) => {
      await fanOut(deps, payload);
    },
    { maxAttempts: 10, backoffMs: 5_000, leaseMs: FANOUT_LEASE_MS },
  );
  jobs.define<DeliverPayload>(DELIVER_JOB, (payload, { signal }) => deliver(deps, payload, signal), {
    maxAttempts: 10,
    backoffMs: 5_000,
    leaseMs: Math.max(DELIVER_LEASE_MS, deps.timeoutMs * 1.5),
  });
}
