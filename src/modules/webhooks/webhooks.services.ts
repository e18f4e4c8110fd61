import type { Db } from '../../db/client.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Secrets } from '../../shared/secrets.ts';
import { AddressGuard } from './address-guard.ts';
import type { DeliveryDeps } from './delivery.ts';
import type { WebhookOutbox } from './outbox.ts';
import { DELIVERY_TIMEOUT_MS } from './retry-schedule.ts';
import { SecretBox } from './secret-box.ts';
import { defineWebhookJobs } from './webhooks.jobs.ts';
import { WebhooksService } from './webhooks.service.ts';

/** Deliveries are network waits: this many run at once per process, beside the main queue's jobs. */
export const DELIVERY_CONCURRENCY = 16;

/** The key of endpoint signing secrets at rest, derived from the service's token secret. */
export const endpointSecretBox = (secrets: Secrets) =>
  new SecretBox(secrets.tokenSecret, 'webhook-endpoint-secrets');

/**
 * The webhooks area of one process: the endpoints service, and a job queue of its own for fan-outs and
 * deliveries, so receivers that answer slowly never hold up the service's other background work.
 */
export function createWebhooksServices(deps: {
  db: Db;
  clock: Clock;
  secrets: Secrets;
  outbox: WebhookOutbox;
  allowedPrivateHosts: readonly string[];
  stopTimeoutMs: number;
}) {
  const { db, clock, outbox } = deps;
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
  });
  defineWebhookJobs(queue, delivery);
  return {
    service: new WebhooksService(db, clock, secrets, guard, outbox),
    /** Fan-outs and deliveries; started with the process's other jobs. */
    queue,
    close: async () => {
      await queue.stop();
      await delivery.agent.close();
    },
  };
}
