import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { type ErrorDetail, errors } from '../../../shared/errors.ts';
import type { RunRow } from '../music-tools/music-tools.repository.ts';
import { jobView, type MusicToolsService } from '../music-tools/music-tools.service.ts';
import { requireTrack, type TrackAccess } from '../track-access.ts';
import * as repo from './compare.repository.ts';
import { alignmentOf, loudnessMatch } from './fair-match.ts';

type Side = 'a' | 'b';

/**
 * Fair A/B of two versions of a track: their loudness from the stored `analyze` results, the gains that play
 * them equally loud, and their offset from the stored waveforms. A version not analysed yet gets an
 * `analyze` run through the music tools when the caller may queue work on the track.
 */
export class CompareService {
  constructor(private readonly deps: { db: Db; tools: MusicToolsService }) {}

  /**
   * 404 for a track the caller cannot see or a version of another track, 409 for a version without audio;
   * then the comparison, or the analyses it waits for (queued here when the caller may, else 409
   * analysis_missing; 409 analysis_failed when the latest analysis failed and there is no earlier one).
   */
  async compare(principal: Principal, trackId: number, a: number, b: number) {
    const { db } = this.deps;
    const access = await requireTrack(db, principal, trackId);
    const ids = [...new Set([a, b])];
    const versions = await repo.versionsOfTrack(db, trackId, ids);
    const sides: [Side, number][] = [
      ['a', a],
      ['b', b],
    ];
    for (const [, id] of sides) if (!versions.some((v) => v.id === id)) throw errors.notFound('version');
    const silent = versions.filter((v) => !v.audioFileKey).map((v) => v.id);
    if (silent.length > 0)
      throw errors.conflict(
        `Version ${silent.join(' and ')} has no registered audio yet: upload and register it first`,
      );

    const [analyses, runs] = await Promise.all([repo.analysesOf(db, ids), repo.latestAnalyzeRuns(db, ids)]);
    const missing = ids.filter((id) => !analyses.some((row) => row.versionId === id));
    if (missing.length > 0) {
      const jobs = await this.waitFor(access, principal, missing, runs, detailsOf(sides));
      return { ready: false as const, pending: { status: 'analysing' as const, jobs } };
    }
    return { ready: true as const, comparison: await this.answer(access, a, b, analyses) };
  }

  /** The jobs the comparison waits for, queueing `analyze` on versions without one when the caller may. */
  private async waitFor(
    access: TrackAccess,
    principal: Principal,
    missing: number[],
    runs: RunRow[],
    details: (ids: number[], message: (id: number) => string) => ErrorDetail[],
  ) {
    const latest = (id: number) => runs.find((run) => run.versionId === id);
    const failed = missing.filter((id) => latest(id)?.status === 'failed');
    if (failed.length > 0)
      throw errors.analysisFailed(
        details(failed, (id) => `the latest analysis of version ${id} failed (${latest(id)?.error?.code})`),
      );
    const unqueued = missing.filter((id) => latest(id) === undefined || latest(id)?.status === 'succeeded');
    if (unqueued.length > 0 && !mayQueue(access, principal))
      throw errors.analysisMissing(details(unqueued, (id) => `version ${id} has not been analysed`));
    const jobs = [];
    for (const id of missing) {
      const run = latest(id);
      jobs.push(
        run && (run.status === 'queued' || run.status === 'running')
          ? jobView(run)
          : await this.deps.tools.request(principal, access.track.id, id, { operation: 'analyze' }),
      );
    }
    return jobs;
  }

  private async answer(
    access: TrackAccess,
    a: number,
    b: number,
    analyses: Awaited<ReturnType<typeof repo.analysesOf>>,
  ) {
    const files = await repo.audioFilesOf(this.deps.db, access.track.teamId, [...new Set([a, b])]);
    const sideOf = (versionId: number) => {
      const row = analyses.find((r) => r.versionId === versionId)!;
      return {
        versionId,
        integratedLufs: row.analysis.loudness.integratedLufs,
        truePeakDbtp: row.analysis.loudness.truePeakDbtp,
        durationSeconds: row.analysis.durationSeconds ?? files.get(versionId)?.audio?.durationSeconds ?? null,
        analysedAt: row.analysedAt,
      };
    };
    const [left, right] = [sideOf(a), sideOf(b)];
    const match = loudnessMatch(left, right);
    return {
      trackId: access.track.id,
      a: { ...left, gainDb: match.gains[0] },
      b: { ...right, gainDb: match.gains[1] },
      referenceVersionId: match.referenceVersionId,
      referenceLufs: match.referenceLufs,
      ...alignmentOf(files.get(a), files.get(b)),
    };
  }
}

/**
 * Whether the caller may queue music-tool work on the track: the owning team's members, and its keys with
 * `tracks:write` (the scope queueing a music tool needs). A team the track is shared with only reads.
 */
function mayQueue(access: TrackAccess, principal: Principal): boolean {
  if (!access.ownerTeam) return false;
  return principal.type === 'session' || principal.scopes.includes('tracks:write');
}

/** Error details naming the query parameters (`/query/a`, `/query/b`) of the versions concerned. */
function detailsOf(sides: [Side, number][]) {
  return (ids: number[], message: (id: number) => string): ErrorDetail[] =>
    sides
      .filter(([, id]) => ids.includes(id))
      .map(([side, id]) => ({ path: `/query/${side}`, message: message(id) }));
}
