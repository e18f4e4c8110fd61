import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { type ProcessRun, runLimitedProcess } from './limited-process.ts';

/** Limits every FFmpeg process runs under. */
export type FfmpegLimits = {
  /** Wall time after which the process is killed. */
  timeoutMs: number;
  /** Address space (with `prlimit`, where the machine has it) and largest single allocation (`-max_alloc`). */
  maxMemoryBytes: number;
};

export type FfmpegRun = ProcessRun;
export { ProcessError as FfmpegError } from './limited-process.ts';

let binary: string | undefined;
/**
 * The FFmpeg binary this process runs: the one `useFfmpeg` named, else the one shipped inside the
 * `@ffmpeg-installer/ffmpeg` package.
 */
export function ffmpegPath(): string {
  binary ??= (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  return binary;
}

/**
 * Runs `path` (FFMPEG_PATH, checked at start) for every FFmpeg run of this process from now on; undefined
 * goes back to the bundled binary. Child processes are handed the path in their arguments.
 */
export function useFfmpeg(path: string | undefined): void {
  binary = path;
}

let prlimit: string | null | undefined;
/** `prlimit` from util-linux when the machine has it; without it only `-max_alloc` bounds memory. */
export function prlimitPath(): string | null {
  if (prlimit !== undefined) return prlimit;
  prlimit = null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, 'prlimit');
    try {
      accessSync(candidate, constants.X_OK);
      prlimit = candidate;
      break;
    } catch {}
  }
  return prlimit;
}

/** The command line a run uses: FFmpeg under `prlimit --as` when available, quiet banner, bounded allocations. */
export function ffmpegCommand(
  args: string[],
  limits: FfmpegLimits,
  options: { usePrlimit?: boolean; binary?: string } = {},
) {
  const binary = options.binary ?? ffmpegPath();
  const ffmpegArgs = [
    '-hide_banner',
    '-nostdin',
    '-max_alloc',
    String(Math.min(limits.maxMemoryBytes, 2 ** 31 - 1)),
    ...args,
  ];
  const limiter = options.usePrlimit === false ? null : prlimitPath();
  if (!limiter) return { file: binary, args: ffmpegArgs };
  return {
    file: limiter,
    args: [`--as=${limits.maxMemoryBytes}`, '--', binary, ...ffmpegArgs],
  };
}

/**
 * Runs FFmpeg with `args` (input and output included) under the limits: killed at the time limit or when
 * `signal` aborts, its log captured. Resolves on exit code 0; otherwise rejects with a ProcessError.
 */
export function runFfmpeg(
  args: string[],
  limits: FfmpegLimits,
  options: { signal?: AbortSignal; stdout?: 'buffer' | 'ignore'; usePrlimit?: boolean } = {},
): Promise<FfmpegRun> {
  const { usePrlimit, ...rest } = options;
  return runLimitedProcess(
    ffmpegCommand(args, limits, usePrlimit === undefined ? {} : { usePrlimit }),
    limits.timeoutMs,
    { ...rest, label: 'FFmpeg' },
  );
}

/** Decodes any input FFmpeg reads to interleaved 32-bit float PCM at `sampleRate` with `channels` channels. */
export async function decodePcm(
  input: string,
  format: { sampleRate: number; channels: number },
  limits: FfmpegLimits,
  signal?: AbortSignal,
): Promise<Float32Array> {
  const { stdout } = await runFfmpeg(
    [
      '-i',
      input,
      '-vn',
      '-ac',
      String(format.channels),
      '-ar',
      String(format.sampleRate),
      '-f',
      'f32le',
      '-',
    ],
    limits,
    { stdout: 'buffer', ...(signal ? { signal } : {}) },
  );
  const aligned = new Uint8Array(stdout.length - (stdout.length % 4));
  aligned.set(stdout.subarray(0, aligned.length));
  return new Float32Array(aligned.buffer, 0, aligned.length / 4);
}

export type Loudness = {
  /** Integrated loudness, LUFS (null for silence: below the absolute gate). */
  integratedLufs: number | null;
  /** Loudness range, LU. */
  loudnessRangeLu: number | null;
  /** Maximum true peak over all channels, dBTP (null for digital silence). */
  truePeakDbtp: number | null;
};

/** EBU R128 measurement by FFmpeg's `ebur128` filter with true peak on. */
export async function measureLoudness(
  input: string,
  limits: FfmpegLimits,
  signal?: AbortSignal,
): Promise<Loudness> {
  const { stderr } = await runFfmpeg(
    ['-nostats', '-i', input, '-vn', '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    limits,
    signal ? { signal } : {},
  );
  return parseEbur128Summary(stderr);
}

/** Reads the `Summary:` block ebur128 logs at the end of a run. */
export function parseEbur128Summary(log: string): Loudness {
  const at = log.lastIndexOf('Summary:');
  if (at < 0) throw new Error('FFmpeg printed no EBU R128 summary');
  const summary = log.slice(at);
  const value = (pattern: RegExp) => {
    const match = summary.match(pattern);
    if (!match) return null;
    const number = Number(match[1]);
    return Number.isFinite(number) ? number : null;
  };
  return {
    integratedLufs: value(/\bI:\s+(-?[\d.]+|-?inf)\s+LUFS/),
    loudnessRangeLu: value(/\bLRA:\s+(-?[\d.]+|-?inf)\s+LU\b/),
    truePeakDbtp: value(/True peak:\s+Peak:\s+(-?[\d.]+|-?inf)\s+dBFS/),
  };
}

/** The last JSON object FFmpeg logged (loudnorm's `print_format=json`). */
export function lastJsonObject(log: string): Record<string, string> {
  const end = log.lastIndexOf('}');
  const start = log.lastIndexOf('{', end);
  if (start < 0 || end < 0) throw new Error('FFmpeg printed no JSON report');
  return JSON.parse(log.slice(start, end + 1)) as Record<string, string>;
}

/** The duration FFmpeg reached while reading (the last `time=` of its progress), in seconds. */
export function lastProgressTime(log: string): number | null {
  const matches = [...log.matchAll(/time=\s*(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/g)];
  const last = matches.at(-1);
  if (!last) return null;
  return Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]);
}
