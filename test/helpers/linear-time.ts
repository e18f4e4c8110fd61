import { createRequestAjv } from '../../src/plugins/validation.ts';
import { adversarialTexts } from './adversarial-text.ts';

/** Time a check may always take, whatever a linear scan of the same text takes. */
export const BUDGET_MS = 50;
/**
 * How many times a trivially linear expression's time over the same text a check may take past the
 * budget: a busy machine (or a collection on the engine's helper threads) slows both alike, a super-linear
 * expression only itself.
 */
export const LINEAR_FACTOR = 20;

export type Slow = { pattern: string; input: string; size: number; ms: number; linearMs: number };

/**
 * Milliseconds of CPU time `run` takes (a busy machine stretches wall-clock time, not this). A slow run is
 * repeated, up to three times, and the fastest counts: the first runs of an expression over long text also
 * pay for V8 growing its backtracking stack, and a garbage collection may fall in one. A super-linear
 * expression is slow every time.
 */
export function elapsed(run: () => unknown): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    fastest = Math.min(fastest, (used.user + used.system) / 1000);
    if (fastest < BUDGET_MS) break;
    // So far over it twice that it is slow for good: not run a third time. Once is not enough, since the
    // process's CPU time also counts its other threads (a collection, the test runner's) during a run.
    if (attempt > 0 && fastest >= 10 * BUDGET_MS) break;
  }
  return fastest;
}

const linearScan = createRequestAjv().compile({ type: 'string', pattern: '^[\\s\\S]*$' });

/** Lets the test runner's own messages through between long stretches of synchronous work. */
const breathe = () => new Promise((resolve) => setImmediate(resolve));

/** Whether `check` over `text` is over budget and over `LINEAR_FACTOR` times a linear scan of the same text. */
export function slowOn(
  check: (text: string) => unknown,
  text: string,
): { ms: number; linearMs: number } | undefined {
  const ms = elapsed(() => check(text));
  if (ms < BUDGET_MS) return undefined;
  const linearMs = elapsed(() => linearScan(text));
  return ms >= LINEAR_FACTOR * linearMs ? { ms: Math.round(ms), linearMs: Math.round(linearMs) } : undefined;
}

/**
 * Runs `check` over adversarial inputs for `pattern` of each size in turn (smallest first, so a super-linear
 * check fails at a small size instead of running for minutes), up to `perSize` of each size; answers the
 * first that is slow (see `slowOn`).
 */
export async function firstSlow(
  pattern: string,
  check: (text: string) => unknown,
  sizes: number[],
  perSize = Number.POSITIVE_INFINITY,
): Promise<Slow | undefined> {
  for (const size of sizes) {
    let tried = 0;
    for (const { label, text } of adversarialTexts(pattern, size)) {
      if (tried++ >= perSize) break;
      const slow = slowOn(check, text);
      if (slow) return { pattern, input: label, size, ...slow };
    }
    await breathe();
  }
  return undefined;
}
