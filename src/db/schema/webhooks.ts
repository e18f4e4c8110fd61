import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdBy, stamp, timestamps } from './columns.ts';
import { domainEvents } from './events.ts';
import { organisations } from './organisations.ts';
import { teams } from './teams.ts';

/** Why an endpoint was paused: what happened to the person or key that registered it. */
export const WEBHOOK_PAUSE_REASONS = [
  'registrant_left',
  'registrant_removed',
  'registrant_demoted',
  'registrant_account_deleted',
  'key_revoked',
] as const;
export type WebhookPauseReason = (typeof WEBHOOK_PAUSE_REASONS)[number];

/**
 * Where a team's or an organisation's events are sent. Exactly one owner column is set.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer().references(() => teams.id, { onDelete: 'cascade' }),
    organisationId: integer().references(() => organisations.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    description: text(),
    /** Empty: every event type. */
    eventTypes: text().array().notNull().default(sql`'{}'::text[]`),
    enabled: boolean().notNull().default(true),
    /** Signing secret (`whsec_...`), sealed with the service's secret. */
    secret: text().notNull(),
    /** After a rotation, the old secret keeps signing alongside the new one until it expires. */
    previousSecret: text(),
    previousSecretExpiresAt: stamp(),
    /**
     * While a run of this endpoint's deliveries is sending (renewed at each batch; its value is the run's token):
     * one run per endpoint at a time across processes.
     */
    sendingUntil: stamp(),
    /** Start of the current run of failed deliveries; cleared by any success. */
    failingSince: stamp(),
    disabledAt: stamp(),
    /** Set with `enabled: false` when the person or key that registered the endpoint lost that right. */
    pausedAt: stamp(),
    pausedReason: text().$type<WebhookPauseReason>(),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    check('webhook_endpoints_one_owner', sql`num_nonnulls(${t.teamId}, ${t.organisationId}) = 1`),
    check(
      'webhook_endpoints_paused_reason',
      sql.raw(`paused_reason in (${WEBHOOK_PAUSE_REASONS.map((r) => `'${r}'`).join(', ')})`),
    ),
    index('webhook_endpoints_team_idx').on(t.teamId).where(sql`${t.teamId} is not null`),
    index('webhook_endpoints_organisation_idx')
      .on(t.organisationId)
      .where(sql`${t.organisationId} is not null`),
  ],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One row per attempt to send one event of the log to one endpoint; a retry is a new row with a higher
 * `attempt`. The body sent is built from the event (`{type, timestamp, data}`), whose id is the webhook-id.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid()
      .notNull()
      .references(() => domainEvents.id, { onDelete: 'cascade' }),
    eventType: text().notNull(),
    attempt: integer().notNull(),
    status: text().$type<WebhookDeliveryStatus>().notNull().default('pending'),
    responseStatus: integer(),
    durationMs: integer(),
    error: text(),
    nextAttemptAt: stamp(),
    /** When a pending attempt is due. */
    dueAt: stamp(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_attempt_unique').on(t.endpointId, t.eventId, t.attempt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id.desc()),
    index('webhook_deliveries_event_idx').on(t.eventId),
    // The backlog and recent failures, read by every metrics scrape.
    index('webhook_deliveries_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_failed_idx').on(t.createdAt).where(sql`${t.status} = 'failed'`),
    // A run of one endpoint takes its due attempts in order.
    index('webhook_deliveries_due_idx').on(t.endpointId, t.dueAt, t.id).where(sql`${t.status} = 'pending'`),
    // Retention removes the oldest attempts first.
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);
