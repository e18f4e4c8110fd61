import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { domainEvents } from '../db/schema/index.ts';
import type { Clock } from '../shared/clock.ts';
import { type Actor, NO_ACTOR } from './actor.ts';

/** Where an event shows on the live streams, and under which name (see domainEvents). */
export type StreamRoute = {
  type: string;
  threadId?: string | undefined;
  sessionId?: number | undefined;
  /** People to tell besides those who see the thread or may read the session. */
  recipients?: string[] | undefined;
};

export type EventInput = {
  type: string;
  subject: { type: string; id: string | number };
  actor?: Actor;
  teamId?: number | null;
  organisationId?: number | null;
  payload?: Record<string, unknown>;
  schemaVersion?: number;
  stream?: StreamRoute;
};

/** An event as recorded; its position is given when its transaction commits. */
export type RecordedEvent = Actor & {
  id: string;
  type: string;
  schemaVersion: number;
  teamId: number | null;
  organisationId: number | null;
  subjectType: string;
  subjectId: string;
  payload: Record<string, unknown>;
  stream: StreamRoute | null;
  createdAt: Date;
};

/**
 * Reads the events of a transaction in that transaction, before it commits (notifications): it may record
 * further events through `log`.
 */
export type InTransactionConsumer = (tx: Db, events: RecordedEvent[], log: EventLog) => Promise<void>;

/**
 * The one log of changes: `record` writes the events of a change in the transaction that makes it, then hands
 * them to the consumers that act in that same transaction. Readers that keep a position read the log after
 * commit (EventConsumers, the live streams).
 */
export class EventLog {
  constructor(
    private readonly clock: Clock,
    private readonly consumers: readonly InTransactionConsumer[] = [],
  ) {}

  async record(tx: Db, input: EventInput | EventInput[]): Promise<RecordedEvent[]> {
    const events = await writeEvents(tx, Array.isArray(input) ? input : [input], this.clock.now());
    if (events.length > 0) for (const consume of this.consumers) await consume(tx, events, this);
    return events;
  }
}

/**
 * Writes events without handing them to any consumer of the writing transaction: for what those consumers
 * write themselves (a notification's stream event), which nothing else reads in the transaction.
 */
export async function writeEvents(tx: Db, inputs: EventInput[], createdAt: Date): Promise<RecordedEvent[]> {
  if (inputs.length === 0) return [];
  const events = inputs.map(
    (e): RecordedEvent => ({
      id: randomUUID(),
      type: e.type,
      schemaVersion: e.schemaVersion ?? 1,
      teamId: e.teamId ?? null,
      organisationId: e.organisationId ?? null,
      subjectType: e.subject.type,
      subjectId: String(e.subject.id),
      ...(e.actor ?? NO_ACTOR),
      payload: e.payload ?? {},
      stream: e.stream ?? null,
      createdAt,
    }),
  );
  await tx.insert(domainEvents).values(
    events.map(({ stream, ...event }) => ({
      ...event,
      streamType: stream?.type ?? null,
      threadId: stream?.threadId ?? null,
      sessionId: stream?.sessionId ?? null,
      recipients: stream?.recipients && stream.recipients.length > 0 ? stream.recipients : null,
    })),
  );
  return events;
}
