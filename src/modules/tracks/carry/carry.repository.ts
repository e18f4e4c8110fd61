import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  type CommentCarriedFrom,
  files,
  type NotesCarried,
  shareLinkComments,
  tracks,
  trackVersions,
  versionComments,
  versionTodos,
} from '../../../db/schema/index.ts';
import { VERSION_AUDIO_OWNER } from '../versions/versions.repository.ts';

/** A version as carrying needs it: its place in the track, its team and whether notes came over already. */
export async function findCarryTarget(db: Db, versionId: number, options: { lock?: boolean } = {}) {
  const query = db
    .select({
      id: trackVersions.id,
      trackId: trackVersions.trackId,
      position: trackVersions.position,
      durationSeconds: trackVersions.durationSeconds,
      notesCarried: trackVersions.notesCarried,
      teamId: tracks.teamId,
    })
    .from(trackVersions)
    .innerJoin(tracks, eq(tracks.id, trackVersions.trackId))
    .where(eq(trackVersions.id, versionId));
  const [row] = await (options.lock ? query.for('update', { of: trackVersions }) : query);
  return row;
}

export type CarryTarget = NonNullable<Awaited<ReturnType<typeof findCarryTarget>>>;

const hasAudio = (teamId: number) =>
  sql`exists (select 1 from ${files} where ${files.teamId} = ${teamId} and ${files.ownerType} = ${VERSION_AUDIO_OWNER} and ${files.ownerId} = ${trackVersions.id}::text)`;

/** The newest version before `target` in the track's order that has registered audio. */
export async function previousWithAudio(db: Db, target: CarryTarget): Promise<number | undefined> {
  const [row] = await db
    .select({ id: trackVersions.id })
    .from(trackVersions)
    .where(
      and(
        eq(trackVersions.trackId, target.trackId),
        sql`(${trackVersions.position}, ${trackVersions.id}) < (${target.position}::integer, ${target.id}::integer)`,
        hasAudio(target.teamId),
      ),
    )
    .orderBy(desc(trackVersions.position), desc(trackVersions.id))
    .limit(1);
  return row?.id;
}

/** The waveform state of a version's registered audio (its newest audio file). */
export async function audioPeaksOf(db: Db, teamId: number, versionId: number) {
  const [row] = await db
    .select({ status: files.peaksStatus, peaks: files.peaks })
    .from(files)
    .where(
      and(
        eq(files.teamId, teamId),
        eq(files.ownerType, VERSION_AUDIO_OWNER),
        eq(files.ownerId, String(versionId)),
      ),
    )
    .orderBy(desc(files.id))
    .limit(1);
  return row;
}

const threadColumns = {
  id: versionComments.id,
  parentId: versionComments.parentId,
  atSeconds: versionComments.atSeconds,
  body: versionComments.body,
  editedAt: versionComments.editedAt,
  createdBy: versionComments.createdBy,
  createdByKeyId: versionComments.createdByKeyId,
  createdAt: versionComments.createdAt,
};

export type ThreadComment = Awaited<ReturnType<typeof openTimedThreads>>[number];

/** The unresolved top-level comments at a time in the audio, then their replies, in creation order. */
export async function openTimedThreads(db: Db, versionId: number) {
  const top = await db
    .select(threadColumns)
    .from(versionComments)
    .where(
      and(
        eq(versionComments.versionId, versionId),
        isNull(versionComments.parentId),
        isNull(versionComments.resolvedAt),
        sql`${versionComments.atSeconds} is not null`,
      ),
    )
    .orderBy(asc(versionComments.id));
  if (top.length === 0) return top;
  const replies = await db
    .select(threadColumns)
    .from(versionComments)
    .where(
      inArray(
        versionComments.parentId,
        top.map((c) => c.id),
      ),
    )
    .orderBy(asc(versionComments.id));
  return [...top, ...replies];
}

type CommentCopy = Omit<ThreadComment, 'id'> & { carriedFrom: CommentCarriedFrom };

/** Writes copies of comments to `versionId`; answers, per original comment id, its copy's id. */
export async function insertCommentCopies(
  db: Db,
  versionId: number,
  copies: CommentCopy[],
): Promise<Map<number, number>> {
  if (copies.length === 0) return new Map();
  const rows = await db
    .insert(versionComments)
    .values(copies.map((c) => ({ ...c, versionId })))
    .returning({ id: versionComments.id, carriedFrom: versionComments.carriedFrom });
  return new Map(rows.map((r) => [r.carriedFrom!.commentId, r.id]));
}

/** Copies keep the guest a review-link comment was written by. */
export async function copyGuestAuthors(db: Db, copyOf: Map<number, number>) {
  if (copyOf.size === 0) return;
  const guests = await db
    .select()
    .from(shareLinkComments)
    .where(inArray(shareLinkComments.commentId, [...copyOf.keys()]));
  if (guests.length === 0) return;
  await db
    .insert(shareLinkComments)
    .values(guests.map((g) => ({ ...g, commentId: copyOf.get(g.commentId)! })));
}

/** The to-dos of a version that are not done, oldest first. */
export async function openTodos(db: Db, versionId: number) {
  return db
    .select({
      id: versionTodos.id,
      text: versionTodos.text,
      assigneeId: versionTodos.assigneeId,
      dueDate: versionTodos.dueDate,
      commentId: versionTodos.commentId,
      createdBy: versionTodos.createdBy,
      createdByKeyId: versionTodos.createdByKeyId,
      createdAt: versionTodos.createdAt,
    })
    .from(versionTodos)
    .where(and(eq(versionTodos.versionId, versionId), eq(versionTodos.done, false)))
    .orderBy(asc(versionTodos.id));
}

export type TodoCopy = Omit<Awaited<ReturnType<typeof openTodos>>[number], 'id'> & {
  carriedFrom: { versionId: number; todoId: number };
  updatedAt: Date;
};

export async function insertTodoCopies(db: Db, versionId: number, copies: TodoCopy[]) {
  if (copies.length === 0) return;
  await db.insert(versionTodos).values(copies.map((t) => ({ ...t, versionId })));
}

export async function setNotesCarried(db: Db, versionId: number, carried: NotesCarried) {
  await db.update(trackVersions).set({ notesCarried: carried }).where(eq(trackVersions.id, versionId));
}
