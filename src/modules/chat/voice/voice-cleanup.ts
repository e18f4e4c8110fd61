import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { files } from '../../../db/schema/index.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { FilesService } from '../../files/files.service.ts';
import { VOICE_OWNER } from './voice.service.ts';

export const VOICE_CLEANUP_JOB = 'chat.deleteUnusedVoiceNotes';
const HOUR = 3_600_000;
const BATCH = 500;

/**
 * Deletes voice notes no live message carries any more (the message was deleted, or its thread with it),
 * bytes included; answers how many went. A track saved from a note has its own copy.
 */
export async function deleteUnusedVoiceNotes(db: Db, store: FilesService): Promise<number> {
  let deleted = 0;
  for (;;) {
    const found = await db
      .select({ teamId: files.teamId, id: files.id })
      .from(files)
      .where(
        and(
          eq(files.ownerType, VOICE_OWNER),
          sql`not exists (select 1 from chat_messages m
            where m.voice_file_id = ${sql.raw('"files"."id"')} and m.deleted_at is null)`,
        ),
      )
      .orderBy(asc(files.id))
      .limit(BATCH);
    const byTeam = new Map<number, number[]>();
    for (const { teamId, id } of found) byTeam.set(teamId, [...(byTeam.get(teamId) ?? []), id]);
    for (const [teamId, ids] of byTeam) deleted += (await store.delete(teamId, ids)).length;
    if (found.length < BATCH) return deleted;
  }
}

/** The hourly cleanup of voice notes. */
export function defineVoiceJobs(jobs: JobQueue, db: Db, store: FilesService): void {
  jobs.define(VOICE_CLEANUP_JOB, async () => {
    await deleteUnusedVoiceNotes(db, store);
  });
  jobs.every(VOICE_CLEANUP_JOB, HOUR);
}
