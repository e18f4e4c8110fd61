import { randomUUID } from 'node:crypto';
import type { DbTransaction } from '../../db/client.ts';
import { webhookEvents } from '../../db/schema/index.ts';
import { insertJob } from '../../jobs/jobs.repository.ts';
import type { Clock } from '../../shared/clock.ts';

/** The job that turns one outbox event into a delivery per subscribed endpoint. */
export const FANOUT_JOB = 'webhooks.fanout';
export type FanoutPayload = { eventId: string };

export type OutboxEvent = ({ teamId: number } | { organisationId: number }) & {
  type: string;
  data: unknown;
};

/**
 * The transactional outbox: records an event and its fan-out job in the caller's transaction, so
 * the event exists exactly when the change that caused it committed.
 */
export class WebhookOutbox {
  constructor(private readonly clock: Clock) {}

  async record(tx: DbTransaction, event: OutboxEvent): Promise<string> {
    const id = randomUUID();
    const now = this.clock.now();
    await tx.insert(webhookEvents).values({
      id,
      teamId: 'teamId' in event ? event.teamId : null,
      organisationId: 'organisationId' in event ? event.organisationId : null,
      type: event.type,
      payload: { type: event.type, timestamp: now.toISOString(), data: event.data },
      createdAt: now,
    });
    const payload: FanoutPayload = { eventId: id };
    await insertJob(tx, { type: FANOUT_JOB, payload, runAt: now, dedupeKey: undefined, now });
    return id;
  }
}
