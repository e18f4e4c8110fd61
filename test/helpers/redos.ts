import { Worker } from 'node:worker_threads';
import { check } from 'recheck';
import { isSafe } from 'redos-detector';
import { adversarialTexts } from './adversarial-text.ts';

/**
 * What the analysers say about one pattern. `recheck` decides: `vulnerable` comes with the complexity it
 * proved and an attack string. `redos-detector` is the second opinion (it also flags pieces that cannot
 * overlap). Matching adversarial input settles what recheck could not decide and what only the second
 * opinion flags: `slowMatch` says how it went when it was too slow, `matched` that it was run.
 */
export type Verdict = {
  source: string;
  flags: string;
  recheck: 'safe' | 'vulnerable' | 'unknown';
  /** recheck's complexity of a vulnerable pattern, or why it could not decide. */
  recheckSays?: string;
  secondOpinionUnsafe: boolean;
  matched: boolean;
  slowMatch?: string;
};

/** Length of the adversarial inputs: a quadratic expression takes seconds on them, a linear one well under 1 ms. */
export const ADVERSARIAL_LENGTH = 20_000;
/** A match slower than this on an input of `ADVERSARIAL_LENGTH` characters is super-linear, not noise. */
export const SLOW_MATCH_MS = 200;
/** A pattern still matching its inputs after this long is taken as exponential; its worker is ended. */
const PATTERN_TIMEOUT_MS = 3_000;

/**
 * Inputs that defeat expressions whatever their shape: runs of spaces, word characters and punctuation
 * ending in a character that breaks the match, and a line break followed by a letter (what `.` cannot
 * cross and a trailing class of spaces cannot finish).
 */
function genericTexts(length: number): { label: string; text: string }[] {
  const runs = [' ', 'a', '0', '.', '-', 'a ', 'a.', 'a-', 'a,', ' \t', '\n', 'aa@', 'a:', 'a/'];
  const endings = ['', '!', '\u0000', '\nx', '\n!', ' \nx'];
  return runs.flatMap((run) =>
    endings.map((ending) => ({
      label: `run of ${JSON.stringify(run)} + ${JSON.stringify(ending)}`,
      text: run.repeat(Math.ceil(length / run.length)).slice(0, length) + ending,
    })),
  );
}

/** The inputs tried on a pattern: those built from its own pieces, then the generic ones. */
function inputsFor(source: string, length: number): { label: string; text: string }[] {
  const own: { label: string; text: string }[] = [];
  try {
    for (const input of adversarialTexts(source, length)) own.push(input);
  } catch {
    // Syntax the input builder does not read (lookbehinds, backreferences): the generic inputs remain.
  }
  return [...own, ...genericTexts(length)];
}

/**
 * Runs in a worker: matches each input (the fastest of two runs of a slow one counts, so a garbage
 * collection in one does not) and answers the slowest.
 */
const MATCHER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ source, flags, inputs }) => {
  const re = new RegExp(source, flags);
  let slowest = { ms: 0, label: '' };
  for (const { label, text } of inputs) {
    let ms = Infinity;
    for (let attempt = 0; attempt < 2 && ms >= ${SLOW_MATCH_MS}; attempt++) {
      re.lastIndex = 0;
      const start = performance.now();
      re.exec(text);
      ms = Math.min(ms, performance.now() - start);
    }
    if (ms > slowest.ms) slowest = { ms, label };
  }
  parentPort.postMessage(slowest);
});`;

/** Matches patterns in a worker that can be ended when one of them never finishes. */
class Matcher {
  private worker = new Worker(MATCHER, { eval: true });

  async slowest(
    source: string,
    flags: string,
    inputs: { label: string; text: string }[],
  ): Promise<{ ms: number; label: string } | 'timeout'> {
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.removeAllListeners();
        void worker.terminate();
        this.worker = new Worker(MATCHER, { eval: true });
        resolve('timeout');
      }, PATTERN_TIMEOUT_MS);
      worker.once('message', (answer) => {
        clearTimeout(timer);
        worker.removeAllListeners('error');
        resolve(answer);
      });
      worker.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.postMessage({ source, flags, inputs });
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}

// Its native checker: without it recheck would fall back to a pure JavaScript one, minutes slower.
process.env.RECHECK_BACKEND ??= 'native';

/** How long recheck may take over one pattern before its answer is `unknown`. */
const RECHECK_TIMEOUT_MS = 10_000;

async function recheckOf(source: string, flags: string): Promise<Pick<Verdict, 'recheck' | 'recheckSays'>> {
  const diagnostics = await check(source, flags, { timeout: RECHECK_TIMEOUT_MS });
  if (diagnostics.status === 'safe') return { recheck: 'safe' };
  if (diagnostics.status === 'unknown')
    return { recheck: 'unknown', recheckSays: `unknown (${diagnostics.error.kind})` };
  const attack = diagnostics.attack.pattern;
  return { recheck: 'vulnerable', recheckSays: `${diagnostics.complexity.summary}, attack ${attack}` };
}

function secondOpinionUnsafe(source: string, flags: string): boolean {
  try {
    return !isSafe(new RegExp(source, flags), { timeout: 1000 }).safe;
  } catch {
    // Syntax it does not read: recheck and matching decide.
    return false;
  }
}

/**
 * Every pattern through recheck (all at once: its native checker takes them in parallel), each through
 * redos-detector, and the ones recheck left undecided or the second opinion flagged through matching inputs
 * built from the pattern's pieces and generic worst cases of `ADVERSARIAL_LENGTH` characters.
 */
export async function analysePatterns(patterns: { source: string; flags: string }[]): Promise<Verdict[]> {
  const rechecked = await Promise.all(patterns.map(({ source, flags }) => recheckOf(source, flags)));
  const matcher = new Matcher();
  try {
    const verdicts: Verdict[] = [];
    for (const [i, { source, flags }] of patterns.entries()) {
      const verdict: Verdict = {
        source,
        flags,
        ...rechecked[i]!,
        secondOpinionUnsafe: secondOpinionUnsafe(source, flags),
        matched: false,
      };
      if (verdict.recheck === 'unknown' || (verdict.recheck === 'safe' && verdict.secondOpinionUnsafe)) {
        verdict.matched = true;
        // `g` and `y` only move where a match starts; without them each input is searched from every position.
        const searchFlags = flags.replace(/[gy]/g, '');
        const slowest = await matcher.slowest(source, searchFlags, inputsFor(source, ADVERSARIAL_LENGTH));
        if (slowest === 'timeout')
          verdict.slowMatch = `did not finish ${ADVERSARIAL_LENGTH}-character inputs in ${PATTERN_TIMEOUT_MS} ms`;
        else if (slowest.ms >= SLOW_MATCH_MS)
          verdict.slowMatch = `${Math.round(slowest.ms)} ms on ${slowest.label} (${ADVERSARIAL_LENGTH} characters)`;
      }
      verdicts.push(verdict);
    }
    return verdicts;
  } finally {
    await new Promise((resolve) => setImmediate(resolve));
    await matcher.close();
  }
}
