/** No retry waits longer than this, whatever the attempt count. */
export const MAX_BACKOFF_MS = 24 * 60 * 60 * 1000;

/**
 * Delay before the retry that follows failed attempt `attempt` (1-based): `baseMs * 2^(attempt-1)`
 * with "equal jitter" (between half and all of it), so retries of jobs that failed together spread out.
 * `random` returns a number in [0, 1).
 */
export function backoffDelay(attempt: number, baseMs: number, random: () => number): number {
  const exponential = Math.min(baseMs * 2 ** Math.min(attempt - 1, 40), MAX_BACKOFF_MS);
  return Math.round(exponential / 2 + (exponential / 2) * random());
}
