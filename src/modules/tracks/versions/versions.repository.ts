import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  type ReviewState,
  trackVersions,
  versionAnalyses,
  versionComments,
  versionPlays,
  versionReviews,
  versionStems,
  versionTodos,
} from '../../../db/schema/index.ts';
import type { Actor } from '../../../events/actor.ts';
import { createdByOf } from '../../../shared/authorship.ts';

// Drizzle writes columns of a single-table select unqualified: outer references in subqueries must be explicit.
const outerVersionId = sql.raw('"track_versions"."id"');

/** The state of the version's latest review that was not withdrawn; `none` without one. */
const reviewState = sql<ReviewState>`coalesce((select ${versionReviews.status} from ${versionReviews} where ${versionReviews.versionId} = ${outerVersionId} and ${versionReviews.status} <> 'withdrawn' order by ${versionReviews.id} desc limit 1), 'none')`;

const versionColumns = {
  id: trackVersions.id,
  trackId: trackVersions.trackId,
  position: trackVersions.position,
  name: trackVersions.name,
  notes: trackVersions.notes,
  isFinal: trackVersions.isFinal,
  audioFileName: trackVersions.audioFileName,
  durationSeconds: trackVersions.durationSeconds,
  reviewState,
  carried: trackVersions.notesCarried,
  createdBy: trackVersions.createdBy,
  createdAt: trackVersions.createdAt,
  updatedAt: trackVersions.updatedAt,
};

export type VersionView = NonNullable<Awaited<ReturnType<typeof findVersionView>>>;

export async function findVersionView(db: Db, versionId: number) {
  const [row] = await db.select(versionColumns).from(trackVersions).where(eq(trackVersions.id, versionId));
  return row;
}

/** The track's versions in order, after the keyset `[position, id]`. */
export async function listVersions(db: Db, trackId: number, limit: number, after?: [number, number]) {
  return db
    .select(versionColumns)
    .from(trackVersions)
    .where(
      and(
        eq(trackVersions.trackId, trackId),
        after
          ? sql`(${trackVersions.position}, ${trackVersions.id}) > (${after[0]}, ${after[1]})`
          : undefined,
      ),
    )
    .orderBy(asc(trackVersions.position), asc(trackVersions.id))
    .limit(limit);
}

/** How much hangs off a version, for its detail. */
export async function countVersionItems(db: Db, versionId: number) {
  const [row] = await db
    .select({
      comments:
        sql<number>`(select count(*) from ${versionComments} where ${versionComments.versionId} = ${versionId})`.mapWith(
          Number,
        ),
      todos:
        sql<number>`(select count(*) from ${versionTodos} where ${versionTodos.versionId} = ${versionId})`.mapWith(
          Number,
        ),
      openTodos:
        sql<number>`(select count(*) from ${versionTodos} where ${versionTodos.versionId} = ${versionId} and not ${versionTodos.done})`.mapWith(
          Number,
        ),
      stems:
        sql<number>`(select count(*) from ${versionStems} where ${versionStems.versionId} = ${versionId})`.mapWith(
          Number,
        ),
      plays:
        sql<number>`(select count(*) from ${versionPlays} where ${versionPlays.versionId} = ${versionId})`.mapWith(
          Number,
        ),
    })
    .from(sql`(select 1) as one`);
  return row!;
}

export async function updateVersion(
  db: Db,
  versionId: number,
  fields: { name?: string; notes?: string | null },
  now: Date,
) {
  await db
    .update(trackVersions)
    .set({ ...fields, updatedAt: now })
    .where(eq(trackVersions.id, versionId));
}

export async function countVersions(db: Db, trackId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(trackVersions)
    .where(eq(trackVersions.trackId, trackId));
  return row?.n ?? 0;
}

export async function deleteVersion(db: Db, versionId: number) {
  await db.delete(trackVersions).where(eq(trackVersions.id, versionId));
}

/** Makes one version the track's final one (the others stop being final). */
export async function markFinal(db: Db, trackId: number, versionId: number, now: Date) {
  await db
    .update(trackVersions)
    .set({ isFinal: false, updatedAt: now })
    .where(
      and(
        eq(trackVersions.trackId, trackId),
        eq(trackVersions.isFinal, true),
        ne(trackVersions.id, versionId),
      ),
    );
  await db
    .update(trackVersions)
    .set({ isFinal: true, updatedAt: now })
    .where(eq(trackVersions.id, versionId));
}

/** Ids of the track's versions, locked for a reorder. */
export async function lockVersionIds(db: Db, trackId: number): Promise<number[]> {
  const rows = await db
    .select({ id: trackVersions.id })
    .from(trackVersions)
    .where(eq(trackVersions.trackId, trackId))
    .for('update');
  return rows.map((r) => r.id);
}

export async function setVersionPositions(db: Db, ordered: number[], now: Date) {
  if (ordered.length === 0) return;
  const cases = sql.join(
    ordered.map((id, i) => sql`when ${id}::integer then ${i}::integer`),
    sql` `,
  );
  await db
    .update(trackVersions)
    .set({ position: sql`case ${trackVersions.id} ${cases} end`, updatedAt: now })
    .where(inArray(trackVersions.id, ordered));
}

/** What the audio file of a version is owned by in the files area. */
export const VERSION_AUDIO_OWNER = 'track_version';

/** Remembers the upload key of a version's audio until the file is registered. */
export async function setVersionAudioKey(db: Db, versionId: number, key: string) {
  await db.update(trackVersions).set({ audioFileKey: key }).where(eq(trackVersions.id, versionId));
}

/** Points the version at its new audio; the analysis of the audio it had (loudness, tempo, key) goes. */
export async function setVersionAudio(
  db: Db,
  versionId: number,
  fields: { audioFileKey: string; audioFileName: string; durationSeconds: number | null; updatedAt: Date },
) {
  await db.update(trackVersions).set(fields).where(eq(trackVersions.id, versionId));
  await db.delete(versionAnalyses).where(eq(versionAnalyses.versionId, versionId));
}

/** A new version at the end of the track's list, named after its place (`Version 3`). */
export async function insertVersion(db: Db, trackId: number, audioFileName: string, actor: Actor, now: Date) {
  const [next] = await db
    .select({
      position: sql<number>`coalesce(max(${trackVersions.position}) + 1, 0)`.mapWith(Number),
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(trackVersions)
    .where(eq(trackVersions.trackId, trackId));
  const [row] = await db
    .insert(trackVersions)
    .values({
      trackId,
      position: next?.position ?? 0,
      name: `Version ${(next?.count ?? 0) + 1}`,
      audioFileName,
      ...createdByOf(actor),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: trackVersions.id });
  return row!.id;
}
