import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { versionStems } from '../../../db/schema/index.ts';
import type { Actor } from '../../../events/actor.ts';
import { createdByOf } from '../../../shared/authorship.ts';
import type { StemDownloader } from './stem-rights.ts';

const stemColumns = {
  id: versionStems.id,
  versionId: versionStems.versionId,
  name: versionStems.name,
  instrument: versionStems.instrument,
  notes: versionStems.notes,
  position: versionStems.position,
  fileId: versionStems.fileId,
  restricted: versionStems.restricted,
  downloadableBy: versionStems.downloadableBy,
  createdBy: versionStems.createdBy,
  createdAt: versionStems.createdAt,
  updatedAt: versionStems.updatedAt,
};

export type StemRow = NonNullable<Awaited<ReturnType<typeof findStem>>>;
export type StemFields = {
  name?: string;
  instrument?: string | null;
  notes?: string | null;
  fileId?: number;
  restricted?: boolean;
  downloadableBy?: StemDownloader[];
};

/** The version's stems in order, after the keyset `[position, id]`. */
export async function listStems(db: Db, versionId: number, limit: number, after?: [number, number]) {
  return db
    .select(stemColumns)
    .from(versionStems)
    .where(
      and(
        eq(versionStems.versionId, versionId),
        after ? sql`(${versionStems.position}, ${versionStems.id}) > (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(asc(versionStems.position), asc(versionStems.id))
    .limit(limit);
}

export async function findStem(db: Db, versionId: number, stemId: number) {
  const [row] = await db
    .select(stemColumns)
    .from(versionStems)
    .where(and(eq(versionStems.id, stemId), eq(versionStems.versionId, versionId)));
  return row;
}

/** The stem, locked for a change of its file. */
export async function lockStem(db: Db, versionId: number, stemId: number) {
  const [row] = await db
    .select(stemColumns)
    .from(versionStems)
    .where(and(eq(versionStems.id, stemId), eq(versionStems.versionId, versionId)))
    .for('update');
  return row;
}

/** A new stem at the end of the version's list. */
export async function insertStem(
  db: Db,
  versionId: number,
  fields: StemFields & { name: string; fileId: number },
  actor: Actor,
  now: Date,
) {
  const [row] = await db
    .insert(versionStems)
    .values({
      versionId,
      ...fields,
      position: sql<number>`(select coalesce(max(${versionStems.position}) + 1, 0) from ${versionStems} where ${versionStems.versionId} = ${versionId})`,
      ...createdByOf(actor),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: versionStems.id });
  return row!.id;
}

export async function updateStem(db: Db, stemId: number, fields: StemFields, now: Date) {
  await db
    .update(versionStems)
    .set({ ...fields, updatedAt: now })
    .where(eq(versionStems.id, stemId));
}

export async function deleteStem(db: Db, stemId: number) {
  await db.delete(versionStems).where(eq(versionStems.id, stemId));
}

/** The download rights of a stem, or undefined when it is gone. */
export async function rightsOfStem(db: Db, stemId: number) {
  const [row] = await db
    .select({ restricted: versionStems.restricted, downloadableBy: versionStems.downloadableBy })
    .from(versionStems)
    .where(eq(versionStems.id, stemId));
  return row;
}

/** The download rights of the stems these files are the audio of (files of other owners are not found). */
export async function rightsOfStemFiles(db: Db, fileIds: number[]) {
  if (fileIds.length === 0) return [];
  return db
    .select({
      stemId: versionStems.id,
      fileId: versionStems.fileId,
      restricted: versionStems.restricted,
      downloadableBy: versionStems.downloadableBy,
    })
    .from(versionStems)
    .where(inArray(versionStems.fileId, fileIds));
}
