import { and, asc, count, eq, getTableColumns, inArray, isNull, max, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { campListeningItems as items, teams, tracks } from '../../../db/schema/index.ts';
import { positionsInOrder } from '../../../shared/positions.ts';

export type ListeningItemRow = typeof items.$inferSelect;

function selectItems(db: Db) {
  return db
    .select({
      id: items.id,
      campId: items.campId,
      position: items.position,
      track: { id: tracks.id, title: tracks.title, teamId: items.teamId, teamName: teams.name },
      submittedBy: items.submittedBy,
      playedAt: items.playedAt,
      createdAt: items.createdAt,
      updatedAt: items.updatedAt,
    })
    .from(items)
    .innerJoin(tracks, and(eq(tracks.id, items.trackId), isNull(tracks.deletedAt)))
    .innerJoin(teams, eq(teams.id, items.teamId));
}

/** The queue in order, after the cursor `[position, id]`; items of deleted tracks are left out. */
export function listItems(db: Db, campId: number, limit: number, after?: [number, number]) {
  return selectItems(db)
    .where(
      and(
        eq(items.campId, campId),
        after
          ? sql`(${items.position}, ${items.id}) > (${after[0]}::integer, ${after[1]}::integer)`
          : undefined,
      ),
    )
    .orderBy(asc(items.position), asc(items.id))
    .limit(limit);
}

export async function findItemView(db: Db, campId: number, itemId: number) {
  const [row] = await selectItems(db).where(and(eq(items.id, itemId), eq(items.campId, campId)));
  return row;
}

export async function findItem(db: Db, campId: number, itemId: number) {
  const [row] = await db
    .select()
    .from(items)
    .where(and(eq(items.id, itemId), eq(items.campId, campId)));
  return row;
}

/** How many items the queue holds and the position after its last one. */
export async function queueSize(db: Db, campId: number) {
  const [row] = await db
    .select({ n: count(), last: max(items.position) })
    .from(items)
    .where(eq(items.campId, campId));
  return {
    count: row?.n ?? 0,
    nextPosition: row?.last === null || row?.last === undefined ? 0 : row.last + 1,
  };
}

/** Appends the track; undefined when it is in the queue already. */
export async function insertItem(db: Db, values: typeof items.$inferInsert) {
  const [row] = await db.insert(items).values(values).onConflictDoNothing().returning({ id: items.id });
  return row?.id;
}

export async function setPlayed(db: Db, campId: number, itemId: number, playedAt: Date | null, now: Date) {
  const rows = await db
    .update(items)
    .set({ playedAt, updatedAt: now })
    .where(and(eq(items.id, itemId), eq(items.campId, campId)))
    .returning({ id: items.id });
  return rows.length > 0;
}

export async function deleteItem(db: Db, campId: number, itemId: number) {
  const rows = await db
    .delete(items)
    .where(and(eq(items.id, itemId), eq(items.campId, campId)))
    .returning(getTableColumns(items));
  return rows[0];
}

/** The ids of the queue's items a list shows (tracks not deleted). */
export async function itemIdsOf(db: Db, campId: number): Promise<number[]> {
  const rows = await db
    .select({ id: items.id })
    .from(items)
    .innerJoin(tracks, and(eq(tracks.id, items.trackId), isNull(tracks.deletedAt)))
    .where(eq(items.campId, campId));
  return rows.map((r) => r.id);
}

/** Gives the listed items the positions 0, 1, 2, ... in the given order. */
export async function reorder(db: Db, campId: number, ordered: number[], now: Date): Promise<void> {
  await db
    .update(items)
    .set({ position: positionsInOrder(items.id, ordered), updatedAt: now })
    .where(and(eq(items.campId, campId), inArray(items.id, ordered)));
}
