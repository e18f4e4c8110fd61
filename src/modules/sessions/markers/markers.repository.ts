import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { recordingMarkers as markers } from '../../../db/schema/index.ts';

export type MarkerRow = typeof markers.$inferSelect;
export type MarkerKey = [positionSeconds: number, id: number];
export type MarkerFields = { label?: string; positionSeconds?: number; color?: string };

/** Up to `limit` markers of the recording after `after`, in time order. */
export function listMarkers(db: Db, recordingId: number, after: MarkerKey | undefined, limit: number) {
  return db
    .select()
    .from(markers)
    .where(
      and(
        eq(markers.recordingId, recordingId),
        after
          ? sql`(${markers.positionSeconds}, ${markers.id}) > (${after[0]}::float8, ${after[1]}::integer)`
          : undefined,
      ),
    )
    .orderBy(asc(markers.positionSeconds), asc(markers.id))
    .limit(limit);
}

export async function insertMarker(
  db: Db,
  values: Required<MarkerFields> & { recordingId: number; createdBy: string; now: Date },
): Promise<MarkerRow> {
  const { now, ...fields } = values;
  const [row] = await db
    .insert(markers)
    .values({ ...fields, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function updateMarker(
  db: Db,
  recordingId: number,
  markerId: number,
  fields: MarkerFields,
  now: Date,
): Promise<MarkerRow | undefined> {
  const [row] = await db
    .update(markers)
    .set({ ...fields, updatedAt: now })
    .where(and(eq(markers.recordingId, recordingId), eq(markers.id, markerId)))
    .returning();
  return row;
}

export async function deleteMarker(db: Db, recordingId: number, markerId: number): Promise<boolean> {
  const rows = await db
    .delete(markers)
    .where(and(eq(markers.recordingId, recordingId), eq(markers.id, markerId)))
    .returning({ id: markers.id });
  return rows.length > 0;
}
