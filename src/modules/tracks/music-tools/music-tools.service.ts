import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { uuidv7 } from 'uuidv7';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/client.ts';
import type { MusicToolError, MusicToolOperation } from '../../../db/schema/index.ts';
import { type Actor, actorOf } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import { type JobContext, type JobQueue, MEDIA_POOL } from '../../../jobs/job-queue.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { AppError, type ErrorDetail, errors } from '../../../shared/errors.ts';
import { extensionFor } from '../../../storage/content-type.ts';
import { type FileRow, listFilesOfOwner } from '../../files/files.repository.ts';
import type { FileOwner, FilesService, PreparedUpload } from '../../files/files.service.ts';
import { insertStem } from '../stems/stems.repository.ts';
import { requireVersion, requireVersionForChange } from '../track-access.ts';
import { audioOwner, extraFilesOwner, stemsOwner } from '../version-audio.ts';
import { countVersionFiles } from '../version-files/version-files.repository.ts';
import { MAX_VERSION_FILES } from '../version-files/version-files.service.ts';
import type { MusicToolEventData } from './music-tool-events.ts';
import * as repo from './music-tools.repository.ts';
import type { ConvertFormat, SplitMode } from './music-tools.schemas.ts';
import * as ops from './operations.ts';
import { separateStems } from './separation-client.ts';
import { ToolFailure } from './tool-failures.ts';

export const MUSIC_TOOL_JOB = 'tracks.musicTool';
type MusicToolPayload = { runId: string };
/** When a team at its limit of unfinished runs is told to try again (Retry-After). */
const TOO_MANY_JOBS_RETRY_SECONDS = 30;
/** Attempts of a run's job: a crash or a lost database is retried, a failing file is not. */
const MAX_ATTEMPTS = 3;

export type MusicToolsSettings = Config['musicTools'];
type Body = {
  operation: MusicToolOperation;
  format?: ConvertFormat | undefined;
  mode?: SplitMode | undefined;
};

/** A run as the API answers it. */
export function jobView(row: repo.RunRow) {
  return {
    id: row.id,
    operation: row.operation,
    status: row.status,
    parameters: row.parameters as Record<string, string>,
    result: row.result ?? null,
    error: row.error ?? null,
    trackId: row.trackId,
    versionId: row.versionId,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/** The options an operation takes, checked before anything is queued; a wrong combination is 400. */
function parametersOf(body: Body): Record<string, string> {
  const problems: ErrorDetail[] = [];
  if (body.operation === 'convert' && body.format === undefined)
    problems.push({
      path: '/body/format',
      message: 'is required with operation convert (mp3, flac, wav or aac)',
    });
  if (body.operation !== 'convert' && body.format !== undefined)
    problems.push({ path: '/body/format', message: 'is only taken by operation convert' });
  if (body.operation !== 'split' && body.mode !== undefined)
    problems.push({ path: '/body/mode', message: 'is only taken by operation split' });
  if (problems.length > 0) throw errors.validation(problems);
  if (body.operation === 'convert') return { format: body.format! };
  if (body.operation === 'split') return { mode: body.mode ?? 'mid-side' };
  return {};
}

/**
 * Music tools on a version's audio: each request is a run row plus a queued job; the job decodes the audio
 * with FFmpeg, measures or makes files, and registers what it made (version files, stems, the analysis)
 * together with the run's outcome, so a run is never half done.
 */
export class MusicToolsService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      jobs: JobQueue;
      files: FilesService;
      events: EventLog;
      settings: MusicToolsSettings;
    },
  ) {
    deps.jobs.define<MusicToolPayload>(MUSIC_TOOL_JOB, (payload, context) => this.run(payload, context), {
      maxAttempts: MAX_ATTEMPTS,
      backoffMs: 5_000,
      pool: MEDIA_POOL,
    });
  }

  /**
   * Queues a run of `operation` on the version's audio and answers it; the same operation with the same
   * options already queued or running on the version is answered instead. A team holds at most
   * `maxJobsPerTeam` unfinished runs (429 too_many_jobs beyond), decided under the team's lock.
   */
  async request(principal: Principal, trackId: number, versionId: number, body: Body) {
    const { db, clock, jobs } = this.deps;
    const { track, version } = await requireVersionForChange(db, principal, trackId, versionId, 'owner');
    const parameters = parametersOf(body);
    if (parameters.mode === 'separate' && !this.deps.settings.separation)
      throw errors.separationUnavailable();
    if (!version.audioFileKey)
      throw errors.conflict('The version has no registered audio yet: upload and register it first');
    const now = clock.now();
    const { maxJobsPerTeam } = this.deps.settings;
    const row = await db.transaction(async (tx) => {
      await repo.lockTeamRuns(tx, track.teamId);
      const wanted = { teamId: track.teamId, versionId, operation: body.operation, parameters };
      const same = await repo.findUnfinishedRun(tx, wanted);
      if (same) return same;
      if ((await repo.countUnfinishedRuns(tx, track.teamId)) >= maxJobsPerTeam)
        throw errors.tooManyJobs(maxJobsPerTeam, TOO_MANY_JOBS_RETRY_SECONDS);
      const run = await repo.insertRun(tx, { id: uuidv7(), trackId, ...wanted }, actorOf(principal), now);
      await jobs.enqueue<MusicToolPayload>(tx, MUSIC_TOOL_JOB, { runId: run.id });
      await this.deps.events.record(tx, {
        type: 'version.music_tool_requested',
        subject: { type: 'version', id: versionId },
        actor: actorOf(principal),
        teamId: track.teamId,
        payload: { trackId, runId: run.id, operation: body.operation, ...parameters },
      });
      return run;
    });
    jobs.nudge();
    return jobView(row);
  }

  /** One run of the version, as the caller may see it. */
  async job(principal: Principal, trackId: number, versionId: number, jobId: string) {
    await requireVersion(this.deps.db, principal, trackId, versionId);
    const row = await repo.findRun(this.deps.db, versionId, jobId);
    if (!row) throw errors.notFound('job');
    return jobView(row);
  }

  /** The job: runs the operation; a failure of the audio or the limits ends the run `failed` with its reason. */
  private async run({ runId }: MusicToolPayload, context: JobContext): Promise<void> {
    const { db, clock } = this.deps;
    const run = await repo.startRun(db, runId, clock.now());
    if (!run) return;
    try {
      await this.execute(run, context.signal);
    } catch (error) {
      // Stopping: the queue hands the job back and it runs again from the start.
      if (context.signal.aborted) throw error;
      const failure = failureOf(error, context.attempt >= MAX_ATTEMPTS);
      if (!failure) throw error;
      // The detail (FFmpeg's log, paths, a service's answer) is for the server log only.
      if (error instanceof ToolFailure)
        this.deps.jobs.logger.warn(
          { runId, code: error.code, detail: error.detail },
          'music tool run failed',
        );
      await db.transaction((tx) => this.finish(tx, run, { error: failure }));
    }
  }

  /**
   * Ends the run with its outcome and records music_tool.job.succeeded or failed, in `tx`; false when another
   * attempt finished it meanwhile (then nothing is recorded).
   */
  private async finish(
    tx: Db,
    run: repo.RunRow,
    outcome: { result: Record<string, unknown> } | { error: MusicToolError },
  ): Promise<boolean> {
    if (!(await repo.finishRun(tx, run.id, outcome, this.deps.clock.now()))) return false;
    const job = {
      jobId: run.id,
      versionId: run.versionId,
      trackId: run.trackId,
      teamId: run.teamId,
      operation: run.operation,
      parameters: run.parameters as Record<string, string>,
    };
    const event =
      'result' in outcome
        ? {
            type: 'music_tool.job.succeeded',
            payload: {
              ...job,
              result: outcome.result,
            } satisfies MusicToolEventData<'music_tool.job.succeeded'>,
          }
        : {
            type: 'music_tool.job.failed',
            payload: { ...job, error: outcome.error } satisfies MusicToolEventData<'music_tool.job.failed'>,
          };
    await this.deps.events.record(tx, {
      ...event,
      subject: { type: 'music_tool_job', id: run.id },
      actor: actorOfRun(run),
      teamId: run.teamId,
    });
    return true;
  }

  private async execute(run: repo.RunRow, signal: AbortSignal): Promise<void> {
    const audio = await this.audioOf(run);
    const workDir = await mkdtemp(join(tmpdir(), 'music-tool-'));
    try {
      const input = join(workDir, `input${safeExtension(audio.originalName)}`);
      const blob = await this.deps.files.store.get(audio.key);
      if (!blob) throw new ToolFailure('audio_missing', 'no bytes in storage');
      await pipeline(blob.stream, createWriteStream(input));
      const ctx: ops.OperationContext = {
        input,
        workDir,
        signal,
        limits: {
          timeoutMs: this.deps.settings.timeoutMs,
          maxMemoryBytes: this.deps.settings.maxMemoryBytes,
        },
        sampleRate: audio.audio?.sampleRate ?? null,
      };
      const base = audio.originalName.replace(/\.[^.]*$/, '').trim() || 'audio';
      switch (run.operation) {
        case 'analyze':
          return await this.finishAnalysis(run, await ops.analyze(ctx));
        case 'normalize': {
          const { output, details } = await ops.normalize(ctx);
          return await this.addVersionFile(run, output, `${base} (normalized -14 LUFS)`, details);
        }
        case 'convert': {
          const format = run.parameters.format as ConvertFormat;
          const output = await ops.convert(ctx, format);
          return await this.addVersionFile(run, output, `${base} (${format} preview)`, { format });
        }
        case 'trim': {
          const { output, details } = await ops.trim(ctx);
          return await this.addVersionFile(run, output, `${base} (trimmed)`, details);
        }
        case 'split': {
          const mode = run.parameters.mode as SplitMode;
          if (mode !== 'separate') {
            const stems = await ops.splitOffline(ctx, mode);
            return await this.addStems(run, mode, base, stems);
          }
          const settings = this.deps.settings.separation;
          if (!settings)
            throw new ToolFailure('separation_failed', 'Stem separation is no longer configured');
          const separated = await separateStems(settings, await ops.toWav(ctx), signal);
          const stems = [];
          for (const stem of separated) {
            const extension = extensionFor(stem.contentType) ?? 'wav';
            const path = join(workDir, `separated-${stem.name}.${extension}`);
            await writeFile(path, stem.bytes);
            stems.push({
              name: stem.name.charAt(0).toUpperCase() + stem.name.slice(1),
              instrument: stem.name,
              output: { path, extension, contentType: stem.contentType },
            });
          }
          return await this.addStems(run, mode, base, stems);
        }
      }
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  /** The version's registered audio file. */
  private async audioOf(run: repo.RunRow): Promise<FileRow> {
    const owner = audioOwner(run.versionId);
    const [file] = await listFilesOfOwner(
      this.deps.db,
      run.teamId,
      { type: owner.type, id: String(owner.id) },
      { limit: 1 },
    );
    if (!file) throw new ToolFailure('audio_missing', 'no registered audio file');
    return file;
  }

  private async finishAnalysis(run: repo.RunRow, analysis: Awaited<ReturnType<typeof ops.analyze>>) {
    const { db, clock } = this.deps;
    const now = clock.now();
    await db.transaction(async (tx) => {
      await repo.saveAnalysis(tx, run.versionId, run.id, analysis, now);
      await this.finish(tx, run, { result: { ...analysis, analysedAt: now.toISOString() } });
    });
  }

  /** Registers an output as an additional file of the version, with the run's success, in one transaction. */
  private async addVersionFile(
    run: repo.RunRow,
    output: ops.Output,
    name: string,
    details: Record<string, unknown>,
  ) {
    const { files } = this.deps;
    const full = () => new ToolFailure('version_files_full');
    if ((await countVersionFiles(this.deps.db, run.teamId, run.versionId)) >= MAX_VERSION_FILES) throw full();
    const owner = extraFilesOwner(run.versionId);
    const prepared = await this.upload(run, owner, output, `${name}.${output.extension}`);
    await this.commit(run, owner, [prepared], async (tx) => {
      if ((await countVersionFiles(tx, run.teamId, run.versionId, true)) >= MAX_VERSION_FILES) throw full();
      const file = await files.completeRegistration(tx, prepared);
      const result = { ...fileResult(file), ...details };
      // The new file is announced by the job's event (its result names it).
      if (!(await this.finish(tx, run, { result }))) throw new RunFinished();
    });
  }

  /** Registers outputs as stems of the version (appended in order), with the run's success, in one transaction. */
  private async addStems(
    run: repo.RunRow,
    mode: SplitMode,
    base: string,
    stems: { name: string; instrument?: string; output: ops.Output }[],
  ) {
    const { files, clock } = this.deps;
    const owner = stemsOwner(run.versionId);
    const prepared: PreparedUpload[] = [];
    try {
      for (const stem of stems)
        prepared.push(
          await this.upload(run, owner, stem.output, `${base} - ${stem.name}.${stem.output.extension}`),
        );
    } catch (error) {
      await this.discard(run, owner, prepared);
      throw error;
    }
    await this.commit(run, owner, prepared, async (tx) => {
      const now = clock.now();
      const made = [];
      for (const [i, stem] of stems.entries()) {
        const file = await files.completeRegistration(tx, prepared[i]!);
        const stemId = await insertStem(
          tx,
          run.versionId,
          { name: stem.name, instrument: stem.instrument ?? null, fileId: file.id },
          actorOfRun(run),
          now,
        );
        made.push({ stemId, name: stem.name, ...fileResult(file) });
      }
      // The new stems are announced by the job's event (its result names them).
      if (!(await this.finish(tx, run, { result: { mode, stems: made } }))) throw new RunFinished();
    });
  }

  /** Stores an output's bytes as an upload of `owner` and prepares its registration (quota reserved, facts read). */
  private async upload(run: repo.RunRow, owner: FileOwner, output: ops.Output, fileName: string) {
    const { files } = this.deps;
    const size = (await stat(output.path)).size;
    const ticket = await files.createUploadUrl({
      teamId: run.teamId,
      kind: 'audio',
      fileName,
      contentType: output.contentType,
      size,
      owner,
      createdBy: run.createdBy,
    });
    try {
      await files.store.put(ticket.key, createReadStream(output.path), { contentType: ticket.contentType });
      return await files.prepareRegistration({
        teamId: run.teamId,
        key: ticket.key,
        owner,
        kind: 'audio',
        createdBy: run.createdBy,
      });
    } catch (error) {
      await files.discardPending(run.teamId, ticket.key, owner);
      throw error;
    }
  }

  /** Commits registrations; on any failure every prepared upload (and its bytes) goes. */
  private async commit(
    run: repo.RunRow,
    owner: FileOwner,
    prepared: PreparedUpload[],
    work: (tx: Db) => Promise<void>,
  ) {
    try {
      await this.deps.files.commitRegistration(prepared, work);
    } catch (error) {
      await this.discard(run, owner, prepared);
      if (error instanceof RunFinished) return;
      throw error;
    }
  }

  private async discard(run: repo.RunRow, owner: FileOwner, prepared: PreparedUpload[]) {
    for (const { pending } of prepared) await this.deps.files.discardPending(run.teamId, pending.key, owner);
  }
}

/** The run was finished by another attempt meanwhile: this attempt's files are given up. */
class RunFinished extends Error {}

function actorOfRun(run: repo.RunRow): Actor {
  return { actorUserId: run.createdBy, actorKeyId: run.createdByKeyId };
}

function fileResult(file: FileRow) {
  return {
    fileId: file.id,
    fileName: file.originalName,
    contentType: file.contentType,
    size: file.size,
    durationSeconds: file.audio?.durationSeconds ?? null,
  };
}

/** The reason a run failed, or undefined to let the queue retry (an unexpected error before the last attempt). */
function failureOf(error: unknown, lastAttempt: boolean): MusicToolError | undefined {
  if (error instanceof ToolFailure) return { code: error.code, message: error.message };
  if (error instanceof AppError && error.statusCode < 500)
    return { code: error.code, message: error.message };
  if (lastAttempt)
    return {
      code: 'internal_error',
      message: 'The tool failed on the server; run it again, or report it if it keeps failing',
    };
  return undefined;
}

/** The input file's extension, when it is a plain one (FFmpeg probes the content anyway). */
function safeExtension(name: string): string {
  const extension = extname(name).toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(extension) ? extension : '';
}
