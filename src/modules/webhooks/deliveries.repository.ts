import { and, desc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../db/client.ts';
import {
  jobs,
  type WebhookDeliveryStatus,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '../../db/schema/index.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type EventRow = typeof webhookEvents.$inferSelect;
type Executor = Db | DbTransaction;

export async function findEvent(executor: Executor, eventId: string): Promise<EventRow | undefined> {
  const [row] = await executor.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)).limit(1);
  return row;
}

/**
 * Fans an event out in one statement: a first attempt for each enabled endpoint of its owner that takes it (one
 * subscribed to its type, or with `endpointId` that endpoint alone, whatever its types) and, for each attempt
 * that did not exist yet, a queued job of `jobType` with payload `{deliveryId}` (the row `insertJob` would write).
 * Running it again inserts nothing. Returns how many attempts it created.
 */
export async function fanOutEvent(
  db: Db,
  options: { eventId: string; endpointId: number | undefined; jobType: string; now: Date },
): Promise<number> {
  const now = sql`${options.now.toISOString()}::timestamptz`;
  const takesIt =
    options.endpointId === undefined
      ? sql`(cardinality(ep.event_types) = 0 or e.type = any(ep.event_types))`
      : sql`ep.id = ${options.endpointId}`;
  const result = await db.execute<{ id: string }>(sql`
    with attempts as (
      insert into ${webhookDeliveries} (endpoint_id, event_id, event_type, attempt, status, created_at, updated_at)
      select ep.id, e.id, e.type, 1, 'pending', ${now}, ${now}
      from ${webhookEvents} e
      join ${webhookEndpoints} ep
        on (ep.team_id = e.team_id or ep.organisation_id = e.organisation_id) and ep.enabled and ${takesIt}
      where e.id = ${options.eventId}
      on conflict (endpoint_id, event_id, attempt) do nothing
      returning id)
    insert into ${jobs} (type, payload, run_at, created_at, updated_at)
    select ${options.jobType}, jsonb_build_object('deliveryId', id), ${now}, ${now}, ${now} from attempts
    returning id`);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows).length;
}

/** Everything one attempt needs: the attempt, its endpoint's address and secrets, the event's body. */
export async function attemptToSend(db: Db, deliveryId: number) {
  const [row] = await db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      eventId: webhookDeliveries.eventId,
      eventType: webhookDeliveries.eventType,
      attempt: webhookDeliveries.attempt,
      status: webhookDeliveries.status,
      url: webhookEndpoints.url,
      enabled: webhookEndpoints.enabled,
      secret: webhookEndpoints.secret,
      previousSecret: webhookEndpoints.previousSecret,
      previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
      payload: webhookEvents.payload,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId))
    .limit(1);
  return row;
}

export type AttemptToSend = NonNullable<Awaited<ReturnType<typeof attemptToSend>>>;

export type AttemptOutcome = {
  status: Exclude<WebhookDeliveryStatus, 'pending'>;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
};

/**
 * Records the outcome of a pending attempt; false when it was no longer pending (another run of its job
 * recorded one first), so that run's outcome stands.
 */
export async function settleAttempt(
  tx: DbTransaction,
  deliveryId: number,
  outcome: AttemptOutcome,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(webhookDeliveries)
    .set({ ...outcome, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending')))
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

/**
 * Notes on a failed attempt when the next one is due and inserts that one's pending row; returns its id, or
 * undefined when it exists already.
 */
export async function scheduleNextAttempt(
  tx: DbTransaction,
  previous: Pick<DeliveryRow, 'id' | 'endpointId' | 'eventId' | 'eventType' | 'attempt'>,
  dueAt: Date,
  now: Date,
): Promise<number | undefined> {
  await tx
    .update(webhookDeliveries)
    .set({ nextAttemptAt: dueAt })
    .where(eq(webhookDeliveries.id, previous.id));
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({
      endpointId: previous.endpointId,
      eventId: previous.eventId,
      eventType: previous.eventType,
      attempt: previous.attempt + 1,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({
      target: [webhookDeliveries.endpointId, webhookDeliveries.eventId, webhookDeliveries.attempt],
    })
    .returning({ id: webhookDeliveries.id });
  return row?.id;
}

/**
 * Records the success of a pending attempt and ends its endpoint's run of failures, in one statement (the hot
 * path of every delivery). Nothing changes when the attempt was no longer pending; the endpoint row is neither
 * written nor locked when no run of failures was going on.
 */
export async function settleSuccess(
  db: Db,
  deliveryId: number,
  outcome: Omit<AttemptOutcome, 'status'>,
  now: Date,
): Promise<void> {
  const settled = db.$with('settled').as(
    db
      .update(webhookDeliveries)
      .set({ ...outcome, status: 'succeeded', updatedAt: now })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending')))
      .returning({ endpointId: webhookDeliveries.endpointId }),
  );
  await db
    .with(settled)
    .update(webhookEndpoints)
    .set({ failingSince: null })
    .where(
      and(
        inArray(webhookEndpoints.id, db.select({ endpointId: settled.endpointId }).from(settled)),
        isNotNull(webhookEndpoints.failingSince),
      ),
    );
}

/** A failure starts the endpoint's run of failures unless one is going on; returns the run's start. */
export async function markFailing(
  tx: DbTransaction,
  endpointId: number,
  now: Date,
): Promise<{ failingSince: Date; enabled: boolean } | undefined> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning({ failingSince: webhookEndpoints.failingSince, enabled: webhookEndpoints.enabled });
  return row && { failingSince: row.failingSince as Date, enabled: row.enabled };
}

export async function disableEndpoint(tx: DbTransaction, endpointId: number, now: Date): Promise<void> {
  await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledAt: now, updatedAt: now })
    .where(eq(webhookEndpoints.id, endpointId));
}

/** Attempts of an endpoint, newest first, in pages of `limit` after the delivery id `before`. */
export async function listDeliveries(
  db: Db,
  endpointId: number,
  options: { limit: number; before?: number | undefined; eventId?: string | undefined },
): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        options.eventId ? eq(webhookDeliveries.eventId, options.eventId) : undefined,
        options.before ? lt(webhookDeliveries.id, options.before) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(options.limit);
}
