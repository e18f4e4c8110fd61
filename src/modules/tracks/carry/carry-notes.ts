import type { Db } from '../../../db/client.ts';
import type { NotesCarried } from '../../../db/schema/index.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import {
  ALIGNMENT_MIN_CONFIDENCE,
  type Alignment,
  alignWaveforms,
} from '../../../media/waveform-alignment.ts';
import type { Clock } from '../../../shared/clock.ts';
import type { VersionEventData } from '../versions/version-events.ts';
import * as repo from './carry.repository.ts';

export const CARRY_NOTES_JOB = 'tracks.carryNotes';

/** `waits`: how many times the job already waited for a waveform. */
export type CarryNotesPayload = { versionId: number; waits?: number };

/** How long the job waits for a waveform that is still being computed, and how often at most. */
export const CARRY_WAIT_MS = 60_000;
const MAX_WAITS = 60;
/** The largest shift between two versions looked for. */
const MAX_OFFSET_SECONDS = 120;

type Dependencies = { db: Db; clock: Clock; events: EventLog; jobs: JobQueue };

/** Queues the carrying of notes to a version whose audio was just registered (with the registration's `tx`). */
export function enqueueCarryNotes(jobs: JobQueue, tx: Db, versionId: number) {
  const payload: CarryNotesPayload = { versionId };
  return jobs.enqueue(tx, CARRY_NOTES_JOB, payload, { dedupeKey: `version:${versionId}` });
}

/**
 * Copies the open notes of the version before `versionId` (the newest earlier one with audio) to it: its
 * unresolved top-level comments at a time in the audio with their replies, and its open to-dos. Times are
 * moved by the alignment of the two waveforms when it is trustworthy. Waits (by queueing itself again)
 * while either waveform is still being computed; gives up waiting after MAX_WAITS and carries unmapped.
 * Idempotent: a version carries once, under a lock of its row, whichever process runs the job.
 */
export async function carryNotes(deps: Dependencies, payload: CarryNotesPayload): Promise<void> {
  const { db } = deps;
  const target = await repo.findCarryTarget(db, payload.versionId);
  if (!target || target.notesCarried) return;
  const fromVersionId = await repo.previousWithAudio(db, target);
  if (fromVersionId === undefined) return;
  const [from, to] = await Promise.all([
    repo.audioPeaksOf(db, target.teamId, fromVersionId),
    repo.audioPeaksOf(db, target.teamId, target.id),
  ]);
  const waits = payload.waits ?? 0;
  if ((from?.status === 'pending' || to?.status === 'pending') && waits < MAX_WAITS) {
    const runAt = new Date(deps.clock.now().getTime() + CARRY_WAIT_MS);
    const next: CarryNotesPayload = { versionId: target.id, waits: waits + 1 };
    await deps.jobs.enqueue(db, CARRY_NOTES_JOB, next, { runAt, dedupeKey: `version:${target.id}` });
    return;
  }
  const alignment =
    from?.peaks && to?.peaks
      ? alignWaveforms(from.peaks, to.peaks, { maxOffsetSeconds: MAX_OFFSET_SECONDS })
      : undefined;
  const durationSeconds = to?.peaks?.durationSeconds ?? target.durationSeconds;
  await db.transaction(async (tx) => {
    const locked = await repo.findCarryTarget(tx, target.id, { lock: true });
    if (!locked || locked.notesCarried) return;
    const mapping = timeMapping(alignment, durationSeconds);
    const carried = await copyNotes(
      tx,
      { fromVersionId, toVersionId: target.id, now: deps.clock.now() },
      mapping,
    );
    const summary: NotesCarried = {
      fromVersionId,
      ...carried,
      offsetSeconds: alignment?.offsetSeconds ?? null,
      confidence: alignment?.confidence ?? null,
      mapped: isTrusted(alignment),
      at: deps.clock.now().toISOString(),
    };
    await repo.setNotesCarried(tx, target.id, summary);
    const { at: _at, ...rest } = summary;
    const data: VersionEventData<'version.notes_carried'> = {
      versionId: target.id,
      trackId: target.trackId,
      teamId: target.teamId,
      ...rest,
    };
    // The system's doing, after the upload: no actor.
    await deps.events.record(tx, {
      type: 'version.notes_carried',
      subject: { type: 'version', id: target.id },
      teamId: target.teamId,
      payload: data,
    });
  });
}

const isTrusted = (alignment: Alignment | undefined): alignment is Alignment =>
  alignment !== undefined && alignment.confidence >= ALIGNMENT_MIN_CONFIDENCE;

type TimeMapping = (atSeconds: number | null) => { atSeconds: number | null; mapped: boolean };

/**
 * A time of the old audio on the new one: shifted by the alignment's offset when the alignment is trusted
 * and the result lies within the new audio; otherwise the same time, unmapped.
 */
export function timeMapping(alignment: Alignment | undefined, durationSeconds: number | null): TimeMapping {
  return (atSeconds) => {
    if (atSeconds === null) return { atSeconds, mapped: false };
    if (!isTrusted(alignment)) return { atSeconds, mapped: false };
    const moved = Math.round((atSeconds + alignment.offsetSeconds) * 1000) / 1000;
    const inside = moved >= 0 && (durationSeconds === null || moved <= durationSeconds);
    return inside ? { atSeconds: moved, mapped: true } : { atSeconds, mapped: false };
  };
}

/** Copies the open threads and to-dos in `tx`; answers how many comments and to-dos were copied. */
async function copyNotes(
  tx: Db,
  { fromVersionId, toVersionId, now }: { fromVersionId: number; toVersionId: number; now: Date },
  map: TimeMapping,
) {
  const thread = await repo.openTimedThreads(tx, fromVersionId);
  const copy = ({ id, ...comment }: repo.ThreadComment, parentId: number | null) => {
    const { atSeconds, mapped } = map(comment.atSeconds);
    const carriedFrom = { versionId: fromVersionId, commentId: id, atSeconds: comment.atSeconds, mapped };
    return { ...comment, parentId, atSeconds, carriedFrom };
  };
  const tops = thread.filter((c) => c.parentId === null);
  const copyOf = await repo.insertCommentCopies(
    tx,
    toVersionId,
    tops.map((c) => copy(c, null)),
  );
  const replies = thread.filter((c) => c.parentId !== null);
  const replyCopies = await repo.insertCommentCopies(
    tx,
    toVersionId,
    replies.map((c) => copy(c, copyOf.get(c.parentId!)!)),
  );
  for (const [from, to] of replyCopies) copyOf.set(from, to);
  await repo.copyGuestAuthors(tx, copyOf);
  const todos = await repo.openTodos(tx, fromVersionId);
  await repo.insertTodoCopies(
    tx,
    toVersionId,
    todos.map(({ id, commentId, ...todo }) => ({
      ...todo,
      // The copy links to the copy of its comment, when that comment came along.
      commentId: commentId === null ? null : (copyOf.get(commentId) ?? null),
      carriedFrom: { versionId: fromVersionId, todoId: id },
      updatedAt: now,
    })),
  );
  return { comments: copyOf.size, todos: todos.length };
}

/** Registers the carrying job. */
export function defineCarryNotesJob(jobs: JobQueue, deps: Omit<Dependencies, 'jobs'>) {
  jobs.define<CarryNotesPayload>(CARRY_NOTES_JOB, (payload) => carryNotes({ ...deps, jobs }, payload));
}
