import { type FfmpegLimits, ffmpegPath } from './ffmpeg.ts';
import { runLimitedProcess } from './limited-process.ts';
import type { MusicalKey } from './music-analysis.ts';
import { nodeChildCommand } from './node-child.ts';

/** `ffmpeg`: the binary the child runs (this process's, FFMPEG_PATH or the bundled one). */
export type AnalysisRequest = { input: string; limits: FfmpegLimits; ffmpeg: string };
export type TempoAndKey = {
  tempoBpm: number | null;
  key: MusicalKey | null;
  /** The whole audio's duration, seconds. */
  durationSeconds: number;
  /** The part tempo and key were computed on (at most MAX_ANALYSED_SECONDS), seconds. */
  analysedSeconds: number;
};

/** The analysis process's exit code when FFmpeg cannot decode the input (or it holds no samples). */
export const AUDIO_UNREADABLE_EXIT = 3;

/**
 * Tempo and key of the first MAX_ANALYSED_SECONDS of `input`, computed in a child process under the memory
 * and time limits, so the decoded signal never enters this process and its event loop stays free. Rejects
 * with a ProcessError (exit code AUDIO_UNREADABLE_EXIT for audio FFmpeg cannot decode).
 */
export async function analyseTempoAndKey(
  input: string,
  limits: FfmpegLimits,
  signal?: AbortSignal,
): Promise<TempoAndKey> {
  const { stdout } = await runLimitedProcess(
    await nodeChildCommand(
      'analysis-process',
      { input, limits, ffmpeg: ffmpegPath() } satisfies AnalysisRequest,
      limits.maxMemoryBytes,
    ),
    limits.timeoutMs,
    {
      stdout: 'buffer',
      label: 'The analysis process',
      ...(signal ? { signal } : {}),
    },
  );
  return JSON.parse(stdout.toString('utf8')) as TempoAndKey;
}
