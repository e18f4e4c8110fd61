import { MAX_VERSION_FILES } from '../version-files/version-files.service.ts';

/**
 * The message a failed run shows for each failure code: fixed, so nothing of the server (paths, FFmpeg's
 * log, a remote service's answer) reaches a client; the detail goes to the server log.
 */
export const TOOL_FAILURE_MESSAGES = {
  audio_missing: 'The audio file of the version is gone',
  audio_unreadable:
    'The audio could not be processed: the file is damaged or not in an audio format the tools read',
  audio_silent:
    'The audio is silent: there is no loudness to measure or normalise and nothing to keep when trimmed',
  processing_timeout: 'Processing stopped at its time limit',
  processing_limit: 'Processing stopped at its memory limit',
  version_files_full: `The version holds ${MAX_VERSION_FILES} additional files already; delete one and run the tool again`,
  separation_failed: 'The stem separation service did not give the four stems; run the tool again later',
} as const;

export type ToolFailureCode = keyof typeof TOOL_FAILURE_MESSAGES;

/** A failure that ends a run `failed` with this code (the audio or the limits, not the server). */
export class ToolFailure extends Error {
  constructor(
    readonly code: ToolFailureCode,
    /** What went wrong in detail, for the server log only. */
    readonly detail?: string,
    options?: { cause?: unknown },
  ) {
    super(TOOL_FAILURE_MESSAGES[code], options);
    this.name = 'ToolFailure';
  }
}
