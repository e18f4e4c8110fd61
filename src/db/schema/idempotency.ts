import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { stamp } from './columns.ts';

/**
 * One row per `Idempotency-Key` a principal sent with a POST: the request's fingerprint while it
 * runs (`lockedUntil` lets another process take over after a crash), then the stored answer.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** `user:<uuid>` or `key:<id>`: keys are per principal. */
    principal: text().notNull(),
    key: text().notNull(),
    /** SHA-256 of the method, the route, its parameters and query, and the body in a canonical form. */
    requestHash: text().notNull(),
    /** Null while the first request runs. */
    responseStatus: integer(),
    responseHeaders: jsonb().$type<Record<string, string>>(),
    responseBody: text(),
    lockedUntil: stamp(),
    createdAt: stamp().notNull().defaultNow(),
    expiresAt: stamp().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.principal, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);
