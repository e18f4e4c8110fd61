import { randomUUID } from 'node:crypto';
import type { DbTransaction } from '../../db/client.ts';
import { webhookEvents } from '../../db/schema/index.ts';
import { insertJob } from '../../jobs/jobs.repository.ts';
import type { Clock } from '../../shared/clock.ts';

/** The job that turns one outbox event into a delivery per subscribed endpoint. */
export const FANOUT_JOB = 'webhooks.fanout';
/** `endpointId`: the event goes to that endpoint only, whatever its event types (`webhook.test`). */
export type FanoutPayload = { eventId: string; endpointId?: number };

export type OutboxEvent = ({ teamId: number } | { organisationId: number }) & {
  type: string;
  data: unknown;
  /** For one endpoint of the owner only (a test event); by default every subscribed endpoint. */
  endpointId?: number;
};

/**
 * The transactional outbox: records an event and its fan-out job in the caller's transaction, so
 * the event exists exactly when the change that caused it committed.
 */
export class WebhookOutbox {
  /** Set by every record; read (and reset) once the request that recorded has answered, to wake the queue. */
  private recordedSinceTaken = false;

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
    const payload: FanoutPayload =
      event.endpointId === undefined ? { eventId: id } : { eventId: id, endpointId: event.endpointId };
    await insertJob(tx, { type: FANOUT_JOB, payload, runAt: now, dedupeKey: undefined, now });
    this.recordedSinceTaken = true;
    return id;
  }

  /**
   * Whether anything was recorded since the last call. Asked after a request has answered (its transaction has
   * committed by then), so this process's queue can fan the event out at once instead of at its next poll.
   */
  takeRecorded(): boolean {
    const recorded = this.recordedSinceTaken;
    this.recordedSinceTaken = false;
    return recorded;
  }
}
