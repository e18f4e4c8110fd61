import type { Database, Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Secrets } from '../../shared/secrets.ts';
import { AddressGuard } from './address-guard.ts';
import type { DeliveryDeps } from './delivery.ts';
import { DELIVERY_TIMEOUT_MS } from './retry-schedule.ts';
import { SecretBox } from './secret-box.ts';
import { defineDeliveryRetention, defineWebhookJobs } from './webhooks.jobs.ts';
import { WebhooksService } from './webhooks.service.ts';

/** Deliveries are network waits: this many endpoint runs go at once per process, beside the main queue's jobs. */
export const DELIVERY_CONCURRENCY = 16;

/** The key of endpoint signing secrets at rest, derived from the service's token secret. */
export const endpointSecretBox = (secrets: Secrets) =>
  new SecretBox(secrets.tokenSecret, 'webhook-endpoint-secrets');

/**
 * The webhooks area of one process: the endpoints service, and a job queue of its own for the delivery runs, so
 * receivers that answer slowly never hold up the service's other background work. The fan-out is a reader of
 * the log (`webhooksFromEvents`), registered where the app is composed.
 */
export function createWebhooksServices(deps: {
  db: Db;
  clock: Clock;
  secrets: Secrets;
  events: EventLog;
  /** The main queue, which runs the removal of old delivery logs. */
  jobs: JobQueue;
  listen: Database['listen'];
  pollIntervalMs: number;
  deliveryRetentionDays: number;
  allowedPrivateHosts: readonly string[];
  stopTimeoutMs: number;
}) {
  const { db, clock } = deps;
  const guard = new AddressGuard({ allowedHosts: deps.allowedPrivateHosts });
  const secrets = endpointSecretBox(deps.secrets);
  const delivery: DeliveryDeps = {
    db,
    clock,
    secrets,
    agent: guard.agent(DELIVERY_TIMEOUT_MS),
    timeoutMs: DELIVERY_TIMEOUT_MS,
  };
  const queue = new JobQueue(db, clock, {
    concurrency: DELIVERY_CONCURRENCY,
    stopTimeoutMs: deps.stopTimeoutMs,
    listen: deps.listen,
    pollIntervalMs: deps.pollIntervalMs,
  });
  defineWebhookJobs(queue, delivery);
  defineDeliveryRetention(deps.jobs, { db, clock, days: deps.deliveryRetentionDays });
  return {
    service: new WebhooksService(db, clock, secrets, guard, deps.events),
    /** Delivery runs; started with the process's other jobs. */
    queue,
    close: async () => {
      await queue.stop();
      await delivery.agent.close();
    },
  };
}
