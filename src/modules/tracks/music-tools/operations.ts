import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type FfmpegLimits,
  lastJsonObject,
  lastProgressTime,
  measureLoudness,
  runFfmpeg,
} from '../../../media/ffmpeg.ts';
import { ProcessError } from '../../../media/limited-process.ts';
import { AUDIO_UNREADABLE_EXIT, analyseTempoAndKey } from '../../../media/music-analysis-runner.ts';
import type { ConvertFormat } from './music-tools.schemas.ts';
import { ToolFailure } from './tool-failures.ts';

/** What every operation gets: the input file, a private scratch folder, the limits and the job's signal. */
export type OperationContext = {
  input: string;
  workDir: string;
  limits: FfmpegLimits;
  signal: AbortSignal;
  /** The input's sample rate when known (outputs keep it). */
  sampleRate: number | null;
};

/** A file an operation made, to be registered. */
export type Output = { path: string; extension: string; contentType: string };

/** Target of `normalize`: streaming loudness, with true-peak headroom for lossy re-encoding downstream. */
export const NORMALIZE_TARGET = { integratedLufs: -14, truePeakDbtp: -1.5, loudnessRange: 20 } as const;
/** Below this (dBFS) for at least SILENCE_MIN_SECONDS counts as silence for `trim`. */
export const SILENCE_THRESHOLD_DB = -60;
const SILENCE_MIN_SECONDS = 0.05;

/**
 * Runs FFmpeg work (and the analysis process), turning its failures into run failures: unreadable audio, time
 * limit. The process's log stays with the failure, for the server log.
 */
async function ffmpeg<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProcessError) {
      const detail = `${error.message}\n${error.stderr}`;
      if (error.reason === 'timeout') throw new ToolFailure('processing_timeout', detail, { cause: error });
      if (error.reason === 'failed') throw new ToolFailure('audio_unreadable', detail, { cause: error });
    }
    throw error;
  }
}

const sampleRateArgs = (ctx: OperationContext) => (ctx.sampleRate ? ['-ar', String(ctx.sampleRate)] : []);

/**
 * Loudness (EBU R128 with true peak) of the whole input, tempo and key of its first MAX_ANALYSED_SECONDS
 * (`analysedSeconds` says how much), each in its own process under the limits.
 */
export async function analyze(ctx: OperationContext) {
  return ffmpeg(async () => {
    const loudness = await measureLoudness(ctx.input, ctx.limits, ctx.signal);
    const { tempoBpm, key, durationSeconds, analysedSeconds } = await analyseTempoAndKey(
      ctx.input,
      ctx.limits,
      ctx.signal,
    ).catch((error: unknown) => {
      // The process says when FFmpeg could not decode; any other failed end of it is its memory limit.
      if (
        error instanceof ProcessError &&
        error.reason === 'failed' &&
        error.exitCode !== AUDIO_UNREADABLE_EXIT
      )
        throw new ToolFailure('processing_limit', `${error.message}\n${error.stderr}`, { cause: error });
      throw error;
    });
    return { loudness, tempoBpm, key, durationSeconds, analysedSeconds };
  });
}

/** Two-pass `loudnorm`: measure, then apply with the measured values, linearly where the target allows. */
export async function normalize(ctx: OperationContext) {
  return ffmpeg(async () => {
    const { integratedLufs: I, truePeakDbtp: TP, loudnessRange: LRA } = NORMALIZE_TARGET;
    const target = `I=${I}:TP=${TP}:LRA=${LRA}`;
    const first = await runFfmpeg(
      ['-nostats', '-i', ctx.input, '-vn', '-af', `loudnorm=${target}:print_format=json`, '-f', 'null', '-'],
      ctx.limits,
      { signal: ctx.signal },
    );
    const measured = lastJsonObject(first.stderr);
    const inputI = Number(measured.input_i);
    if (!Number.isFinite(inputI))
      throw new ToolFailure('audio_silent', 'loudnorm measured no integrated loudness');
    const path = join(ctx.workDir, 'normalized.flac');
    const second = await runFfmpeg(
      [
        '-nostats',
        '-i',
        ctx.input,
        '-vn',
        '-af',
        `loudnorm=${target}:measured_I=${measured.input_i}:measured_TP=${measured.input_tp}:` +
          `measured_LRA=${measured.input_lra}:measured_thresh=${measured.input_thresh}:` +
          `offset=${measured.target_offset}:linear=true:print_format=json`,
        // loudnorm works at 192 kHz; the file goes back to the input's rate.
        ...(ctx.sampleRate ? sampleRateArgs(ctx) : ['-ar', '48000']),
        '-c:a',
        'flac',
        '-sample_fmt',
        's16',
        '-y',
        path,
      ],
      ctx.limits,
      { signal: ctx.signal },
    );
    const applied = lastJsonObject(second.stderr);
    const after = await measureLoudness(path, ctx.limits, ctx.signal);
    return {
      output: { path, extension: 'flac', contentType: 'audio/flac' } satisfies Output,
      details: {
        target: { integratedLufs: I, truePeakDbtp: TP },
        mode: applied.normalization_type === 'linear' ? 'linear' : 'dynamic',
        before: {
          integratedLufs: inputI,
          truePeakDbtp: finiteOrNull(measured.input_tp),
          loudnessRangeLu: finiteOrNull(measured.input_lra),
        },
        after,
      },
    };
  });
}

const CONVERSIONS: Record<ConvertFormat, { args: string[]; extension: string; contentType: string }> = {
  mp3: { args: ['-c:a', 'libmp3lame', '-b:a', '192k'], extension: 'mp3', contentType: 'audio/mpeg' },
  flac: { args: ['-c:a', 'flac'], extension: 'flac', contentType: 'audio/flac' },
  wav: { args: ['-c:a', 'pcm_s16le'], extension: 'wav', contentType: 'audio/wav' },
  aac: {
    args: ['-c:a', 'aac', '-b:a', '192k', '-movflags', '+faststart'],
    extension: 'm4a',
    contentType: 'audio/mp4',
  },
};

/** A preview file of the input in `format` (MP3 192 kb/s, FLAC, 16-bit WAV, AAC 192 kb/s in MP4). */
export async function convert(ctx: OperationContext, format: ConvertFormat): Promise<Output> {
  const conversion = CONVERSIONS[format];
  const path = join(ctx.workDir, `converted.${conversion.extension}`);
  await ffmpeg(() =>
    runFfmpeg(
      ['-nostats', '-i', ctx.input, '-vn', '-map_metadata', '-1', ...conversion.args, '-y', path],
      ctx.limits,
      {
        signal: ctx.signal,
      },
    ),
  );
  return { path, extension: conversion.extension, contentType: conversion.contentType };
}

type Silence = { start: number; end: number | null };

/** Silences `silencedetect` logged, and the duration read. */
export function parseSilences(log: string): { silences: Silence[]; duration: number | null } {
  const silences: Silence[] = [];
  for (const match of log.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    const at = Math.max(0, Number(match[2]));
    if (match[1] === 'start') silences.push({ start: at, end: null });
    else if (silences.length > 0 && silences.at(-1)!.end === null) silences.at(-1)!.end = at;
  }
  return { silences, duration: lastProgressTime(log) };
}

/** Leading and trailing silence cut (measured with `silencedetect`, cut with `atrim`), as FLAC. */
export async function trim(ctx: OperationContext) {
  return ffmpeg(async () => {
    const detect = await runFfmpeg(
      [
        '-i',
        ctx.input,
        '-vn',
        '-af',
        `silencedetect=noise=${SILENCE_THRESHOLD_DB}dB:duration=${SILENCE_MIN_SECONDS}`,
        '-f',
        'null',
        '-',
      ],
      ctx.limits,
      { signal: ctx.signal },
    );
    const { silences, duration } = parseSilences(detect.stderr);
    if (duration === null) throw new ToolFailure('audio_unreadable', 'silencedetect logged no progress time');
    const first = silences[0];
    const last = silences.at(-1);
    const start = first && first.start <= 0.001 ? (first.end ?? duration) : 0;
    // A silence running to the end has no logged end (or one at the end).
    const end =
      last && (last.end === null || last.end >= duration - 0.001) && last.start > 0 ? last.start : duration;
    if (end - start <= 0.001) throw new ToolFailure('audio_silent', 'nothing would remain after trimming');
    const path = join(ctx.workDir, 'trimmed.flac');
    await runFfmpeg(
      [
        '-nostats',
        '-i',
        ctx.input,
        '-vn',
        '-af',
        `atrim=start=${start.toFixed(6)}:end=${end.toFixed(6)},asetpts=PTS-STARTPTS`,
        '-c:a',
        'flac',
        '-y',
        path,
      ],
      ctx.limits,
      { signal: ctx.signal },
    );
    return {
      output: { path, extension: 'flac', contentType: 'audio/flac' } satisfies Output,
      details: {
        leadingSecondsRemoved: round3(start),
        trailingSecondsRemoved: round3(duration - end),
        thresholdDb: SILENCE_THRESHOLD_DB,
      },
    };
  });
}

/** Mid (L+R)/2 and side (L-R)/2, or left and right: two mono 16-bit WAV stems from one FFmpeg run. */
export async function splitOffline(ctx: OperationContext, mode: 'mid-side' | 'left-right') {
  const [first, second] =
    mode === 'mid-side'
      ? ([
          ['Mid', 'c0=0.5*c0+0.5*c1'],
          ['Side', 'c0=0.5*c0-0.5*c1'],
        ] as const)
      : ([
          ['Left', 'c0=c0'],
          ['Right', 'c0=c1'],
        ] as const);
  const paths = [join(ctx.workDir, 'stem-a.wav'), join(ctx.workDir, 'stem-b.wav')] as const;
  await ffmpeg(() =>
    runFfmpeg(
      [
        '-nostats',
        '-i',
        ctx.input,
        '-filter_complex',
        // Mono input is taken as the same signal on both sides (side silent, left = right).
        `[0:a]aformat=channel_layouts=stereo,asplit=2[a][b];[a]pan=mono|${first[1]}[x];[b]pan=mono|${second[1]}[y]`,
        '-map',
        '[x]',
        '-c:a',
        'pcm_s16le',
        '-y',
        paths[0],
        '-map',
        '[y]',
        '-c:a',
        'pcm_s16le',
        '-y',
        paths[1],
      ],
      ctx.limits,
      { signal: ctx.signal },
    ),
  );
  return [
    { name: first[0], output: { path: paths[0], extension: 'wav', contentType: 'audio/wav' } },
    { name: second[0], output: { path: paths[1], extension: 'wav', contentType: 'audio/wav' } },
  ];
}

/** The input as 16-bit WAV at its own rate (what the separation service receives). */
export async function toWav(ctx: OperationContext): Promise<Buffer> {
  const path = join(ctx.workDir, 'separation-input.wav');
  await ffmpeg(() =>
    runFfmpeg(['-nostats', '-i', ctx.input, '-vn', '-c:a', 'pcm_s16le', '-y', path], ctx.limits, {
      signal: ctx.signal,
    }),
  );
  return readFile(path);
}

function finiteOrNull(value: string | undefined): number | null {
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
