import { and, asc, desc, eq, inArray, isNotNull, lt, lte, min, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, DbTransaction } from '../../db/client.ts';
import {
  domainEvents,
  jobs,
  type WebhookDeliveryStatus,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema/index.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type Executor = Db | DbTransaction;

/** The job that runs an endpoint's due attempts; one queued per endpoint (its id is the dedupe key). */
export const DELIVER_JOB = 'webhooks.deliver';
export type DeliverPayload = { endpointId: number };

const stampOf = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Fans committed events out in one statement: a first attempt, due now, for each enabled endpoint of each
 * event's owner (its team, else its organisation) that takes it (one subscribed to its type, every type when
 * it lists none; a `webhook.test` event goes to the endpoint it names alone), and a queued run of each
 * endpoint concerned (or the one queued, moved to now). Attempts that exist already are skipped.
 */
export async function fanOutEvents(tx: Executor, eventIds: readonly string[], now: Date): Promise<void> {
  if (eventIds.length === 0) return;
  const at = stampOf(now);
  await tx.execute(sql`
    with attempts as (
      insert into ${webhookDeliveries} (endpoint_id, event_id, event_type, attempt, status, due_at, created_at, updated_at)
      select ep.id, e.id, e.type, 1, 'pending', ${at}, ${at}, ${at}
      from ${domainEvents} e
      join ${webhookEndpoints} ep on ep.enabled
        and case when e.team_id is not null then ep.team_id = e.team_id else ep.organisation_id = e.organisation_id end
        and case when e.type = 'webhook.test' then e.subject_type = 'webhook_endpoint' and e.subject_id = ep.id::text
          else cardinality(ep.event_types) = 0 or e.type = any(ep.event_types) end
      where e.id in ${eventIds}
      order by e.position, ep.id
      on conflict (endpoint_id, event_id, attempt) do nothing
      returning endpoint_id)
    insert into ${jobs} (type, payload, dedupe_key, run_at, created_at, updated_at)
    select ${DELIVER_JOB}, jsonb_build_object('endpointId', endpoint_id), endpoint_id::text, ${at}, ${at}, ${at}
    from (select distinct endpoint_id from attempts) concerned
    on conflict (type, dedupe_key) where status = 'queued' and dedupe_key is not null
    do update set run_at = least(${jobs.runAt}, excluded.run_at)`);
}

/** An endpoint as a run of its deliveries needs it. */
export type SendingEndpoint = {
  id: number;
  url: string;
  enabled: boolean;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
};

/**
 * Takes (or, with `held`, renews) the endpoint's sending lease until `until`: answers the endpoint, or
 * `{heldUntil}` while another run holds it, or undefined when the endpoint is gone.
 */
export async function leaseEndpoint(
  db: Db,
  options: { endpointId: number; now: Date; until: Date; held?: Date | undefined },
): Promise<SendingEndpoint | { heldUntil: Date } | undefined> {
  const free = options.held
    ? eq(webhookEndpoints.sendingUntil, options.held)
    : or(sql`${webhookEndpoints.sendingUntil} is null`, lte(webhookEndpoints.sendingUntil, options.now));
  const [leased] = await db
    .update(webhookEndpoints)
    .set({ sendingUntil: options.until })
    .where(and(eq(webhookEndpoints.id, options.endpointId), free))
    .returning({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      enabled: webhookEndpoints.enabled,
      secret: webhookEndpoints.secret,
      previousSecret: webhookEndpoints.previousSecret,
      previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
    });
  if (leased) return leased;
  const [row] = await db
    .select({ sendingUntil: webhookEndpoints.sendingUntil })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, options.endpointId));
  if (!row) return undefined;
  return { heldUntil: row.sendingUntil ?? options.now };
}

/** Up to `limit` due attempts of the endpoint, in the order they fell due, with the event each sends. */
export function dueAttempts(db: Db, endpointId: number, now: Date, limit: number) {
  return db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      eventId: webhookDeliveries.eventId,
      eventType: webhookDeliveries.eventType,
      attempt: webhookDeliveries.attempt,
      payload: domainEvents.payload,
      occurredAt: domainEvents.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(domainEvents, eq(domainEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.dueAt, now),
      ),
    )
    .orderBy(asc(webhookDeliveries.dueAt), asc(webhookDeliveries.id))
    .limit(limit);
}

export type DueAttempt = Awaited<ReturnType<typeof dueAttempts>>[number];

/**
 * Ends a run: gives the sending lease `held` back and, when attempts of the endpoint are still pending, queues
 * its next run for the first of them to fall due (or moves the queued one earlier), in one transaction. An
 * attempt whose fan-out committed while the lease was held is seen here.
 */
export async function endRun(db: Db, options: { endpointId: number; held: Date; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(webhookEndpoints)
      .set({ sendingUntil: null })
      .where(
        and(eq(webhookEndpoints.id, options.endpointId), eq(webhookEndpoints.sendingUntil, options.held)),
      );
    const [next] = await tx
      .select({ dueAt: min(webhookDeliveries.dueAt) })
      .from(webhookDeliveries)
      .where(
        and(eq(webhookDeliveries.endpointId, options.endpointId), eq(webhookDeliveries.status, 'pending')),
      );
    if (!next?.dueAt) return;
    const dueAt = new Date(Math.max(next.dueAt.getTime(), options.now.getTime()));
    await queueRun(tx, options.endpointId, dueAt, options.now);
  });
}

/** Queues a run of the endpoint at `runAt`, or moves the one queued earlier to it. */
export async function queueRun(
  executor: Executor,
  endpointId: number,
  runAt: Date,
  now: Date,
): Promise<void> {
  const payload: DeliverPayload = { endpointId };
  await executor.execute(sql`
    insert into ${jobs} (type, payload, dedupe_key, run_at, created_at, updated_at)
    values (${DELIVER_JOB}, ${JSON.stringify(payload)}::jsonb, ${String(endpointId)}, ${stampOf(runAt)},
      ${stampOf(now)}, ${stampOf(now)})
    on conflict (type, dedupe_key) where status = 'queued' and dedupe_key is not null
    do update set run_at = least(${jobs.runAt}, excluded.run_at)`);
}

export type AttemptOutcome = {
  status: Exclude<WebhookDeliveryStatus, 'pending'>;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
};

/**
 * Records the outcome of a pending attempt; false when it was no longer pending (another run recorded one
 * first), so that run's outcome stands.
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
 * Notes on a failed attempt when the next one is due and inserts that one's pending row, due then; false when
 * it exists already.
 */
export async function scheduleNextAttempt(
  tx: DbTransaction,
  previous: Pick<DeliveryRow, 'id' | 'endpointId' | 'eventId' | 'eventType' | 'attempt'>,
  dueAt: Date,
  now: Date,
): Promise<boolean> {
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
      dueAt,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({
      target: [webhookDeliveries.endpointId, webhookDeliveries.eventId, webhookDeliveries.attempt],
    })
    .returning({ id: webhookDeliveries.id });
  return row !== undefined;
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

/**
 * Deletes up to `limit` attempts created before `before` that are no longer pending, oldest first; answers how
 * many went.
 */
export async function deleteSettledBefore(db: Db, before: Date, limit: number): Promise<number> {
  const expired = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(lt(webhookDeliveries.createdAt, before), ne(webhookDeliveries.status, 'pending')))
    .orderBy(asc(webhookDeliveries.createdAt))
    .limit(limit);
  const rows = await db
    .delete(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, expired))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
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

/** Keeps an event in the log while attempts of it are logged (they read its body, and cascade with it). */
export const loggedAttemptsHold = (eventId: AnyPgColumn): SQL =>
  sql`exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.eventId} = ${eventId})`;
