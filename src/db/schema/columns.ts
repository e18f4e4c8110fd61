import { sql } from 'drizzle-orm';
import { date, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { files } from './files.ts';
import { users } from './identity.ts';
import { teams } from './teams.ts';

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

/** A card on a team's status board: the owning team, its status column (from the team's configuration) and its place in it. */
export const boardCard = () => ({
  teamId: integer()
    .notNull()
    .references(() => teams.id, { onDelete: 'cascade' }),
  statusId: text().notNull(),
  position: integer().notNull(),
});

/** What tracks and albums alike are catalogued by. */
export const releaseFields = () => ({
  title: text().notNull(),
  artist: text(),
  genre: text(),
  language: text(),
  label: text(),
  tags: text().array().notNull().default(sql`'{}'::text[]`),
  releaseDate: date({ mode: 'string' }),
  notes: text(),
  /** The current cover image. */
  coverFileId: integer().references(() => files.id, { onDelete: 'set null' }),
});
