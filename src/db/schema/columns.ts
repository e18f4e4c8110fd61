import { integer, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

/** Column builders shared by the catalogue tables. */

// Millisecond precision so a timestamp survives a round trip through a JSON cursor exactly.
export const stamp = () => timestamp({ withTimezone: true, precision: 3 });

export const timestamps = () => ({
  createdAt: stamp().notNull().defaultNow(),
  updatedAt: stamp().notNull().defaultNow(),
});

/** The actor of a write: a user, or (when an API key acted) the key. */
export const createdBy = () => ({
  createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  createdByKeyId: integer(),
});
