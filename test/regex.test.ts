import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestContext } from './helpers/context.ts';
import { analysePatterns, type Verdict } from './helpers/redos.ts';
import { documentPatterns, type WrittenPattern, writtenPatterns } from './helpers/regex-inventory.ts';

/**
 * Every regular expression of the service, checked for super-linear matching: the literals and `RegExp`
 * constructions of `src/` (found by parsing the sources), the schemas' `pattern`s written there, and every
 * pattern of the served OpenAPI document (what the routes validate). A pattern may be allowed only when a
 * comment at it says why its input is bounded or its shape linear; the entry names the file and the
 * pattern, and this test checks the comment is there.
 */
/** Each entry: the file, how the expression starts, and why it may stay. */
const ALLOWED: { file: string; text: string; why: string }[] = [
  {
    file: 'src/modules/ai-search/normalise.ts',
    text: 'new RegExp(`[${Object.keys(SPECIAL)',
    why: 'built from a table of letters: one character class without a quantifier (see the comment above it)',
  },
  {
    file: 'src/modules/chat/bots/follow-up-parser.ts',
    text: 'new RegExp(`\\\\b(?:on|via|by|over)',
    why: 'built from a table of network names: an alternation of words between word boundaries',
  },
  {
    file: 'src/plugins/path-tokens.ts',
    text: 'new RegExp(`^$',
    why: "built from the routes' paths: literal text and `[^/?#]+?` runs, each ended by a `/` or the end",
  },
  {
    file: 'src/plugins/openapi/examples.ts',
    text: 'new RegExp(s.pattern',
    why: "a pattern of the document's own schemas (each checked here), matched against a short example text",
  },
  {
    file: 'src/modules/chat/messages/mentions.ts',
    text: '/@\\[([^\\]\\r\\n]{1,200})',
    why: "recheck's fuzzing reads the bounded label as polynomial; an attempt reads at most 200 characters and an id",
  },
];

const ctx = useTestContext();

/**
 * Why a pattern fails: recheck proved it super-linear, or matching was too slow where recheck could not
 * decide or where only the second opinion flagged it (alone, that opinion also flags pieces that cannot
 * overlap, such as `(?:[a-z0-9]+\.)*[a-z0-9]+`).
 */
function problemOf(verdict: Verdict): string | undefined {
  if (verdict.recheck === 'vulnerable') return `recheck: ${verdict.recheckSays}`;
  if (verdict.slowMatch === undefined) return undefined;
  const why = verdict.recheck === 'unknown' ? `recheck: ${verdict.recheckSays}` : 'redos-detector: unsafe';
  return `${why}; matching: ${verdict.slowMatch}`;
}
const root = process.cwd();

const allowance = (pattern: WrittenPattern) =>
  ALLOWED.find((entry) => pattern.at.startsWith(`${entry.file}:`) && pattern.text.startsWith(entry.text));

/** Whether one of the three lines above `path:line` is a comment. */
function commentedAt(at: string): boolean {
  const [file, line] = at.split(':') as [string, string];
  const lines = readFileSync(file, 'utf8').split('\n');
  const above = lines.slice(Math.max(0, Number(line) - 4), Number(line) - 1);
  return above.some((text) => /^\s*(\/\/|\*|\/\*)/.test(text));
}

describe('regular expressions', () => {
  it('finds the super-linear patterns it is meant to (the check can fail)', async () => {
    const verdicts = await analysePatterns([
      // A Range header pattern as it was: two runs of spaces met around an empty number.
      { source: '^bytes\\s*=\\s*(\\d*)\\s*-\\s*(\\d*)\\s*$', flags: 'i' },
      { source: '^(a+)+$', flags: '' },
      { source: '\\/+$', flags: '' },
      { source: '^bytes\\s*=\\s*(?:(\\d+)\\s*)?-\\s*(?:(\\d+)\\s*)?$', flags: 'i' },
      // Linear, though the second opinion flags it: matching settles it.
      { source: '^(?:[a-z0-9]+\\.)*[a-z0-9]+$', flags: 'u' },
    ]);
    expect(verdicts.map((v) => problemOf(v) !== undefined)).toEqual([true, true, true, false, false]);
    expect(verdicts.map((v) => v.recheck)).toEqual([
      'vulnerable',
      'vulnerable',
      'vulnerable',
      'safe',
      'safe',
    ]);
    expect(verdicts[1]!.recheckSays).toMatch(/exponential/);
    expect(verdicts[4]).toMatchObject({ secondOpinionUnsafe: true, matched: true });
  }, 60_000);

  it('matches every pattern of the sources and of the OpenAPI document in linear time', async () => {
    const written = writtenPatterns(root);
    // The parser sees what grep would, and more: the counts only grow as code is added.
    expect(written.filter((p) => p.kind === 'literal').length).toBeGreaterThan(100);
    expect(written.filter((p) => p.kind === 'schema pattern').length).toBeGreaterThan(10);
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const served = documentPatterns(doc);
    expect(served.length).toBeGreaterThan(10);

    const problems: string[] = [];
    for (const entry of ALLOWED) {
      const found = written.find((p) => allowance(p) === entry);
      if (!found) problems.push(`allowed but not found: ${entry.file} ${entry.text}`);
      else if (!commentedAt(found.at)) problems.push(`allowed without a comment at it: ${found.at}`);
    }
    for (const pattern of written.filter((p) => p.source === undefined && !allowance(p)))
      problems.push(`${pattern.at}: built at run time, so it cannot be checked: ${pattern.text}`);

    // Each distinct pattern is matched once, wherever it is written.
    const places = new Map<string, { source: string; flags: string; at: string[] }>();
    const add = (source: string, flags: string, at: string) => {
      const key = `${flags}/${source}`;
      const known = places.get(key) ?? { source, flags, at: [] };
      known.at.push(at);
      places.set(key, known);
    };
    for (const p of written) if (p.source !== undefined && !allowance(p)) add(p.source, p.flags, p.at);
    // Request validation compiles schema patterns with the `u` flag.
    for (const p of served) add(p.source, 'u', `openapi.json ${p.at}`);
    const verdicts = await analysePatterns([...places.values()]);
    for (const verdict of verdicts) {
      const problem = problemOf(verdict);
      if (problem === undefined) continue;
      const at = places.get(`${verdict.flags}/${verdict.source}`)!.at;
      problems.push(`${at.join(', ')}: /${verdict.source}/${verdict.flags}: ${problem}`);
    }
    expect(problems).toEqual([]);
  }, 240_000);
});
