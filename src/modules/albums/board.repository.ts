import { and, asc, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { albums } from '../../db/schema/index.ts';
import { positionsInOrder } from '../../shared/positions.ts';

/** How many albums the status holds: the position a new album at its end gets. */
export async function columnSize(db: Db, teamId: number, statusId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(albums)
    .where(and(eq(albums.teamId, teamId), eq(albums.statusId, statusId)));
  return row?.n ?? 0;
}

/** The albums of one status, in board order, locked for a reorder. */
export async function lockColumn(db: Db, teamId: number, statusId: string): Promise<number[]> {
  const rows = await db
    .select({ id: albums.id })
    .from(albums)
    .where(and(eq(albums.teamId, teamId), eq(albums.statusId, statusId)))
    .orderBy(asc(albums.position), asc(albums.id))
    .for('update');
  return rows.map((r) => r.id);
}

/** Closes the hole an album leaving `position` of a status leaves. */
export async function closeGap(db: Db, teamId: number, statusId: string, position: number): Promise<void> {
  await db
    .update(albums)
    .set({ position: sql`${albums.position} - 1` })
    .where(and(eq(albums.teamId, teamId), eq(albums.statusId, statusId), gt(albums.position, position)));
}

/** Gives the albums positions 0..n-1 in the order listed. */
export async function setBoardPositions(db: Db, ordered: number[]): Promise<void> {
  if (ordered.length === 0) return;
  await db
    .update(albums)
    .set({ position: positionsInOrder(albums.id, ordered) })
    .where(inArray(albums.id, ordered));
}

/** Album statuses among `statusIds` that the team's albums use. */
export async function albumStatusesInUse(db: Db, teamId: number, statusIds: string[]): Promise<string[]> {
  const rows = await db
    .selectDistinct({ statusId: albums.statusId })
    .from(albums)
    .where(and(eq(albums.teamId, teamId), inArray(albums.statusId, statusIds)));
  return rows.map((r) => r.statusId);
}

/** Moves every album of one status to the end of another, keeping their order (positions stay gapless). */
export async function moveColumn(db: Db, teamId: number, from: string, to: string): Promise<void> {
  const base = await columnSize(db, teamId, to);
  await db.execute(sql`
    update ${albums} set status_id = ${to}, position = ${base}::integer + moved.rank - 1
    from (
      select ${albums.id} as id, row_number() over (order by ${albums.position}, ${albums.id})::integer as rank
      from ${albums} where ${albums.teamId} = ${teamId} and ${albums.statusId} = ${from}
    ) as moved
    where ${albums.id} = moved.id`);
}
