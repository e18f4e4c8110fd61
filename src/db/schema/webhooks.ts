import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdBy, stamp, timestamps } from './columns.ts';
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

/** The outbox: one row per event, written in the transaction of the change that caused it. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid().primaryKey(),
    teamId: integer().references(() => teams.id, { onDelete: 'cascade' }),
    organisationId: integer().references(() => organisations.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    /** The body every endpoint receives: `{type, timestamp, data}`. */
    payload: jsonb().$type<{ type: string; timestamp: string; data: unknown }>().notNull(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    check('webhook_events_one_owner', sql`num_nonnulls(${t.teamId}, ${t.organisationId}) = 1`),
    index('webhook_events_created_idx').on(t.createdAt),
    // Deleting a team cascades here.
    index('webhook_events_team_idx').on(t.teamId).where(sql`${t.teamId} is not null`),
  ],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One row per attempt to send one event to one endpoint; a retry is a new row with a higher `attempt`. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid()
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    eventType: text().notNull(),
    attempt: integer().notNull(),
    status: text().$type<WebhookDeliveryStatus>().notNull().default('pending'),
    responseStatus: integer(),
    durationMs: integer(),
    error: text(),
    nextAttemptAt: stamp(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_attempt_unique').on(t.endpointId, t.eventId, t.attempt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id.desc()),
    index('webhook_deliveries_event_idx').on(t.eventId),
    // The backlog and recent failures, read by every metrics scrape.
    index('webhook_deliveries_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_failed_idx').on(t.createdAt).where(sql`${t.status} = 'failed'`),
  ],
);
