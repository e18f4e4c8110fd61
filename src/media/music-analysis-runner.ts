import { fileURLToPath } from 'node:url';
import type { FfmpegLimits } from './ffmpeg.ts';
import { prlimitPath } from './ffmpeg.ts';
import { runLimitedProcess } from './limited-process.ts';
import type { MusicalKey } from './music-analysis.ts';

export type AnalysisRequest = { input: string; limits: FfmpegLimits };
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
/** Share of the memory limit the JavaScript heap of the analysis process may take. */
const HEAP_SHARE = 0.75;

/** The command running the analysis process: Node (with TypeScript support when running from source) under the limits. */
export function analysisCommand(request: AnalysisRequest): { file: string; args: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = fileURLToPath(new URL(`./analysis-process.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  const heapMb = Math.max(64, Math.floor((request.limits.maxMemoryBytes * HEAP_SHARE) / 2 ** 20));
  const node = [
    process.execPath,
    ...(fromSource ? ['--import', 'tsx'] : []),
    `--max-old-space-size=${heapMb}`,
    script,
    JSON.stringify(request),
  ];
  // The data limit bounds what Node allocates outside its heap too (an address-space limit stops V8 starting).
  const limiter = prlimitPath();
  if (!limiter) return { file: node[0]!, args: node.slice(1) };
  return { file: limiter, args: [`--data=${request.limits.maxMemoryBytes}`, '--', ...node] };
}

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
  const { stdout } = await runLimitedProcess(analysisCommand({ input, limits }), limits.timeoutMs, {
    stdout: 'buffer',
    label: 'The analysis process',
    ...(signal ? { signal } : {}),
  });
  return JSON.parse(stdout.toString('utf8')) as TempoAndKey;
}
