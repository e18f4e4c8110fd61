import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { stamp } from './columns.ts';
import { users } from './identity.ts';

/**
 * Short-lived, single-use tickets that open an event stream from a client that cannot send a header
 * (`EventSource`): `?ticket=` stands in for the bearer token of the session that asked for it. Only a hash
 * is kept; a ticket is for one stream kind and is deleted when used.
 */
export const streamTickets = pgTable(
  'stream_tickets',
  {
    tokenHash: text().primaryKey(),
    /** Which stream the ticket opens (`chat.events`). */
    stream: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The session that asked: the stream ends with it, and a ticket of an ended session opens nothing. */
    sessionId: text().notNull(),
    expiresAt: stamp().notNull(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [index('stream_tickets_expires_idx').on(t.expiresAt), index('stream_tickets_user_idx').on(t.userId)],
);
