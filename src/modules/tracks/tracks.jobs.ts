import { and, asc, eq, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { tracks } from '../../db/schema/index.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import type { FilesService } from '../files/files.service.ts';
import { defineCarryNotesJob } from './carry/carry-notes.ts';
import type { TrackEventData } from './track-events.ts';
import { deleteTrackFiles } from './track-files.ts';
import { deleteTrack } from './tracks.repository.ts';

export const TRACKS_JOBS = { purgeDeleted: 'tracks.purgeDeleted' } as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BATCH = 50;

type Dependencies = { db: Db; clock: Clock; files: FilesService; events: EventLog; retentionDays: number };

/**
 * Hard-deletes tracks soft-deleted more than `retentionDays` ago, with their files, one track per
 * transaction so a crash loses nothing and a restore racing the purge wins or loses whole. Answers how
 * many tracks went.
 */
export async function purgeDeletedTracks({
  db,
  clock,
  files,
  events,
  retentionDays,
}: Dependencies): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - retentionDays * DAY);
  const due = and(isNotNull(tracks.deletedAt), lt(tracks.deletedAt, cutoff));
  let purged = 0;
  for (;;) {
    const batch = await db
      .select({ id: tracks.id })
      .from(tracks)
      .where(due)
      .orderBy(asc(tracks.deletedAt))
      .limit(BATCH);
    let purgedNow = 0;
    for (const { id } of batch) {
      const gone = await files.transaction(async (tx) => {
        // Locked and checked again: the track may have been restored or purged by another process.
        const [track] = await tx
          .select({ teamId: tracks.teamId })
          .from(tracks)
          .where(and(eq(tracks.id, id), due))
          .for('update', { skipLocked: true });
        if (!track) return false;
        await deleteTrackFiles(files, tx, track.teamId, id);
        await deleteTrack(tx, id);
        const payload: TrackEventData<'track.deleted'> = {
          trackId: id,
          teamId: track.teamId,
          mode: 'purged',
        };
        // The retention's doing: no actor.
        await events.record(tx, {
          type: 'track.deleted',
          subject: { type: 'track', id },
          teamId: track.teamId,
          payload,
        });
        return true;
      });
      if (gone) purgedNow++;
    }
    purged += purgedNow;
    // A batch another process holds entirely is left to it rather than polled again.
    if (batch.length < BATCH || purgedNow === 0) return purged;
  }
}

/**
 * The tracks area's background work: the hourly purge of soft-deleted tracks past retention, and carrying
 * a version's open notes to the next one once its audio is registered.
 */
export function defineTracksJobs(jobs: JobQueue, deps: Dependencies): void {
  defineCarryNotesJob(jobs, deps);
  jobs.define(TRACKS_JOBS.purgeDeleted, async () => {
    await purgeDeletedTracks(deps);
  });
  jobs.every(TRACKS_JOBS.purgeDeleted, HOUR);
}
