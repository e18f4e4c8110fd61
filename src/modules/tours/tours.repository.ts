import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files, type TourStatus, tourPublicCovers, tours } from '../../db/schema/index.ts';
import { newTeamRow, type Stamps } from '../../shared/authorship.ts';
import type { TourValues } from './tour-input.ts';

/** A tour with what its answer shows of its current cover (file and public token), in one statement. */
export const tourColumns = {
  id: tours.id,
  teamId: tours.teamId,
  name: tours.name,
  status: tours.status,
  startsOn: tours.startsOn,
  endsOn: tours.endsOn,
  dates: tours.dates,
  notes: tours.notes,
  coverFileId: tours.coverFileId,
  createdAt: tours.createdAt,
  updatedAt: tours.updatedAt,
  coverKey: files.key,
  coverName: files.originalName,
  coverType: files.contentType,
  coverToken: tourPublicCovers.token,
};

/** The tours table joined to what `tourColumns` reads of the current cover. */
export function toursWithCover(db: Db) {
  return db
    .select(tourColumns)
    .from(tours)
    .leftJoin(files, eq(files.id, tours.coverFileId))
    .leftJoin(tourPublicCovers, eq(tourPublicCovers.fileId, tours.coverFileId));
}

export type TourRow = NonNullable<Awaited<ReturnType<typeof findTour>>>;

/** One tour of the team, with its cover, or undefined. */
export async function findTour(db: Db, teamId: number, tourId: number) {
  const [row] = await toursWithCover(db)
    .where(and(eq(tours.id, tourId), eq(tours.teamId, teamId)))
    .limit(1);
  return row;
}

/** Which of a team's tours a list reads. */
export type TourFilter = { teamId: number; status?: TourStatus | undefined; from?: string | undefined };

/** Where a page ends: `[startsOn or 'infinity', id]` of its last tour. */
export type TourKey = [start: string, id: number];

// The list's order, spelled as its index is: tours without a start date sort after every dated one.
const START = sql`coalesce(${tours.startsOn}, 'infinity'::date)`;

function tourFilter(f: TourFilter): SQL | undefined {
  return and(
    eq(tours.teamId, f.teamId),
    f.status === undefined ? undefined : eq(tours.status, f.status),
    f.from === undefined ? undefined : sql`coalesce(${tours.endsOn}, ${tours.startsOn}) >= ${f.from}::date`,
  );
}

/** Up to `limit` of the team's tours after `after`, soonest start first, then by id. */
export async function listTours(db: Db, f: TourFilter, after: TourKey | undefined, limit: number) {
  const afterKey = after
    ? sql`(${START}, ${tours.id}) > (${after[0]}::date, ${after[1]}::integer)`
    : undefined;
  return toursWithCover(db)
    .where(and(tourFilter(f), afterKey))
    .orderBy(START, tours.id)
    .limit(limit);
}

/** The keyset position of a tour in `listTours` order. */
export const keyOf = (row: { startsOn: string | null; id: number }): TourKey => [
  row.startsOn ?? 'infinity',
  row.id,
];

export async function insertTour(db: Db, values: TourValues, stamps: Stamps): Promise<number> {
  const [row] = await db
    .insert(tours)
    .values({
      ...values,
      ...newTeamRow(stamps),
    })
    .returning({ id: tours.id });
  return row!.id;
}

/** Writes every editable field of a tour; whether the tour was there. */
export async function replaceTour(
  db: Db,
  teamId: number,
  tourId: number,
  values: TourValues,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(tours)
    .set({ ...values, updatedAt: now })
    .where(and(eq(tours.id, tourId), eq(tours.teamId, teamId)))
    .returning({ id: tours.id });
  return rows.length > 0;
}

export async function deleteTour(db: Db, teamId: number, tourId: number) {
  const [row] = await db
    .delete(tours)
    .where(and(eq(tours.id, tourId), eq(tours.teamId, teamId)))
    .returning({ id: tours.id, name: tours.name });
  return row;
}

/** Marks the tour as changed (its answer shows the cover, so a cover change counts). */
export async function touchTour(db: Db, tourId: number, now: Date): Promise<void> {
  await db.update(tours).set({ updatedAt: now }).where(eq(tours.id, tourId));
}
