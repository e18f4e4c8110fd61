import type { Readable } from 'node:stream';
import { ffmpegPath } from './ffmpeg.ts';
import { ProcessError, runLimitedProcess } from './limited-process.ts';
import { nodeChildCommand } from './node-child.ts';
import type { PeaksOptions, PeaksResult } from './peaks.ts';

/** Limits of the process drawing one waveform: wall time and memory. */
export const PEAKS_LIMITS = { timeoutMs: 120_000, maxMemoryBytes: 512 * 2 ** 20 } as const;

/**
 * computePeaks in a child process under PEAKS_LIMITS, the audio streamed to it, so decoding a long file
 * never holds this process's event loop nor its memory. A process stopped at a limit is a failure result.
 * Formats the child does not decode itself go through this process's FFmpeg, under the same limits.
 */
export async function computePeaksIsolated(
  source: Readable,
  options: PeaksOptions = {},
  limits: { timeoutMs: number; maxMemoryBytes: number } = PEAKS_LIMITS,
): Promise<PeaksResult> {
  try {
    const { stdout } = await runLimitedProcess(
      await nodeChildCommand(
        'peaks-process',
        { ffmpeg: { path: ffmpegPath(), limits }, ...options } satisfies PeaksOptions,
        limits.maxMemoryBytes,
      ),
      limits.timeoutMs,
      { stdin: source, stdout: 'buffer', label: 'The waveform process' },
    );
    return JSON.parse(stdout.toString('utf8')) as PeaksResult;
  } catch (error) {
    if (!(error instanceof ProcessError) || error.reason === 'spawn') throw error;
    return {
      ok: false,
      reason: 'undecodable',
      message:
        error.reason === 'timeout'
          ? 'Drawing the waveform stopped at its time limit'
          : 'Drawing the waveform failed or stopped at its memory limit',
    };
  }
}
