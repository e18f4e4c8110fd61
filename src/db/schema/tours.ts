import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdBy, stamp, timestamps } from './columns.ts';
import { files } from './files.ts';
import { teams } from './teams.ts';

export const TOUR_STATUSES = ['planning', 'announced', 'on_sale', 'completed', 'cancelled'] as const;
export type TourStatus = (typeof TOUR_STATUSES)[number];

/** One show of a tour, as stored in `tours.dates` (kept in date order). */
export type StoredTourDate = {
  date: string;
  city: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  venue: string | null;
  capacity: number | null;
  ticketUrl: string | null;
};

/**
 * A team's tour. Its dates live in one jsonb array on the row: a PUT replaces them in the same single-row
 * update as the other fields, and a list reads no second table. `starts_on` / `ends_on` hold the effective
 * range (given, else the first and last date), so lists sort by them through an index.
 */
export const tours = pgTable(
  'tours',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    status: text().$type<TourStatus>().notNull().default('planning'),
    startsOn: date({ mode: 'string' }),
    endsOn: date({ mode: 'string' }),
    dates: jsonb().$type<StoredTourDate[]>().notNull().default(sql`'[]'::jsonb`),
    notes: text(),
    /** The cover the tour shows. */
    coverFileId: integer().references(() => files.id, { onDelete: 'set null' }),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    check(
      'tours_status_check',
      sql`${t.status} in ('planning', 'announced', 'on_sale', 'completed', 'cancelled')`,
    ),
    check('tours_range_check', sql`${t.endsOn} >= ${t.startsOn}`),
    check('tours_dates_array_check', sql`jsonb_typeof(${t.dates}) = 'array'`),
    // The list's order: soonest start first, tours without a start after every dated one.
    index('tours_team_start_idx').on(t.teamId, sql`coalesce(${t.startsOn}, 'infinity'::date)`, t.id),
  ],
);

/**
 * Covers of a tour that anyone may fetch without a token, by an unguessable token. A row exists only while
 * the cover is public: making it private deletes the row, and deleting the cover (or the tour) cascades.
 */
export const tourPublicCovers = pgTable(
  'tour_public_covers',
  {
    fileId: integer()
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    tourId: integer()
      .notNull()
      .references(() => tours.id, { onDelete: 'cascade' }),
    /** 256 random bits, base64url: the last part of the public URL. */
    token: text().notNull().unique(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [index('tour_public_covers_tour_idx').on(t.tourId)],
);
