import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { type CampRsvpStatus, campRsvps, camps } from '../../../db/schema/index.ts';
import { readableOrganisationIds } from '../access.ts';

export type CampRow = typeof camps.$inferSelect;

/**
 * The order of camp lists, upcoming first: camps not over yet (`endsOn` today or later) by start date, then
 * past ones, most recent first. `[rank, day key, id]` is also the keyset of the cursor.
 */
const campOrder = (today: string) => {
  const rank = sql<number>`(case when ${camps.endsOn} >= ${today}::date then 0 else 1 end)`;
  const day = sql<number>`(case when ${camps.endsOn} >= ${today}::date
    then ${camps.startsOn} - date '1970-01-01' else date '1970-01-01' - ${camps.startsOn} end)`;
  return { rank, day };
};

const myRsvp = (userId: string) =>
  sql<CampRsvpStatus | null>`(select r.status from ${campRsvps} r
    where r.camp_id = ${camps.id} and r.user_id = ${userId})`;

function listCamps(
  db: Db,
  scope: ReturnType<typeof sql>,
  input: { userId: string; today: string; limit: number; after?: [number, number, number] | undefined },
) {
  const { rank, day } = campOrder(input.today);
  const { after } = input;
  return db
    .select({
      ...getTableColumns(camps),
      myRsvp: myRsvp(input.userId),
      rank: rank.mapWith(Number),
      day: day.mapWith(Number),
    })
    .from(camps)
    .where(
      and(
        scope,
        after
          ? sql`(${rank}, ${day}, ${camps.id}) > (${after[0]}::integer, ${after[1]}::integer, ${after[2]}::integer)`
          : undefined,
      ),
    )
    .orderBy(asc(rank), asc(day), asc(camps.id))
    .limit(input.limit);
}

/** The organisation's camps, upcoming first. */
export function listCampsOfOrganisation(
  db: Db,
  organisationId: number,
  input: Parameters<typeof listCamps>[2],
) {
  return listCamps(db, sql`${camps.organisationId} = ${organisationId}`, input);
}

/** The camps of every organisation the user reads, upcoming first. */
export function listReadableCamps(db: Db, input: Parameters<typeof listCamps>[2]) {
  return listCamps(db, sql`${camps.organisationId} in ${readableOrganisationIds(input.userId)}`, input);
}

/** A camp of the organisation with the caller's answer. */
export async function findCamp(db: Db, organisationId: number, campId: number, userId: string) {
  const [row] = await db
    .select({ ...getTableColumns(camps), myRsvp: myRsvp(userId) })
    .from(camps)
    .where(and(eq(camps.id, campId), eq(camps.organisationId, organisationId)));
  return row;
}

/** A camp by id or slug, whatever its organisation (the caller's access is checked next). */
export async function findCampByRef(db: Db, ref: { id: number } | { slug: string }) {
  const [row] = await db
    .select()
    .from(camps)
    .where('id' in ref ? eq(camps.id, ref.id) : eq(camps.slug, ref.slug));
  return row;
}

export async function rsvpCounts(db: Db, campId: number) {
  const rows = await db
    .select({ status: campRsvps.status, n: sql<number>`count(*)`.mapWith(Number) })
    .from(campRsvps)
    .where(eq(campRsvps.campId, campId))
    .groupBy(campRsvps.status);
  const counts = { accepted: 0, declined: 0, maybe: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

export async function insertCamp(db: Db, values: typeof camps.$inferInsert) {
  const [row] = await db.insert(camps).values(values).returning();
  return row!;
}

export async function updateCamp(
  db: Db,
  organisationId: number,
  campId: number,
  changes: Partial<typeof camps.$inferInsert>,
) {
  const [row] = await db
    .update(camps)
    .set(changes)
    .where(and(eq(camps.id, campId), eq(camps.organisationId, organisationId)))
    .returning();
  return row;
}

export async function deleteCamp(db: Db, campId: number): Promise<void> {
  await db.delete(camps).where(eq(camps.id, campId));
}

/** Locks the camp's row (queue and file changes of one camp run one after another). */
export async function lockCamp(db: Db, organisationId: number, campId: number) {
  const [row] = await db
    .select()
    .from(camps)
    .where(and(eq(camps.id, campId), eq(camps.organisationId, organisationId)))
    .for('no key update');
  return row;
}

export async function findRsvp(db: Db, campId: number, userId: string) {
  const [row] = await db
    .select()
    .from(campRsvps)
    .where(and(eq(campRsvps.campId, campId), eq(campRsvps.userId, userId)))
    .for('update');
  return row;
}

export async function upsertRsvp(
  db: Db,
  values: { campId: number; userId: string; status: CampRsvpStatus; now: Date },
) {
  const [row] = await db
    .insert(campRsvps)
    .values({
      campId: values.campId,
      userId: values.userId,
      status: values.status,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .onConflictDoUpdate({
      target: [campRsvps.campId, campRsvps.userId],
      set: { status: values.status, updatedAt: values.now },
    })
    .returning();
  return row!;
}
