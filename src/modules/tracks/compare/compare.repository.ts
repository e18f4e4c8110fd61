import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { musicToolRuns, trackVersions, versionAnalyses } from '../../../db/schema/index.ts';
import { listFilesOfOwners } from '../../files/files.repository.ts';
import type { RunRow } from '../music-tools/music-tools.repository.ts';
import { VERSION_AUDIO_OWNER } from '../versions/versions.repository.ts';

/** The versions among `ids` that belong to the track, with whether they have registered audio. */
export async function versionsOfTrack(db: Db, trackId: number, ids: number[]) {
  return db
    .select({ id: trackVersions.id, audioFileKey: trackVersions.audioFileKey })
    .from(trackVersions)
    .where(and(eq(trackVersions.trackId, trackId), inArray(trackVersions.id, ids)));
}

/** The stored latest analysis of each of the versions that has one. */
export async function analysesOf(db: Db, versionIds: number[]) {
  return db
    .select({
      versionId: versionAnalyses.versionId,
      analysis: versionAnalyses.analysis,
      analysedAt: versionAnalyses.analysedAt,
    })
    .from(versionAnalyses)
    .where(inArray(versionAnalyses.versionId, versionIds));
}

/** The newest `analyze` run of each of the versions that has one. */
export async function latestAnalyzeRuns(db: Db, versionIds: number[]): Promise<RunRow[]> {
  return db
    .selectDistinctOn([musicToolRuns.versionId])
    .from(musicToolRuns)
    .where(and(inArray(musicToolRuns.versionId, versionIds), eq(musicToolRuns.operation, 'analyze')))
    .orderBy(musicToolRuns.versionId, desc(musicToolRuns.createdAt), desc(musicToolRuns.id));
}

/** The registered audio file of each of the versions (of the team owning them) that has one. */
export async function audioFilesOf(db: Db, teamId: number, versionIds: number[]) {
  const rows = await listFilesOfOwners(db, teamId, VERSION_AUDIO_OWNER, versionIds.map(String));
  // Oldest first: a later file of the same version (a replacement being registered) wins.
  return new Map(rows.map((row) => [Number(row.ownerId), row]));
}
