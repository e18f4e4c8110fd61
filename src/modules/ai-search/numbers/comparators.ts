import type { Token } from '../normalise.ts';

/** Inclusive bounds; null is open. */
export type Range = { min: number | null; max: number | null };

/** A range written by tokens [start, end). */
export type Hit = { range: Range; start: number; end: number };

/**
 * How a number is meant: `around` it, strictly `above`/`below` it, `atLeast`/`atMost` it, exactly it,
 * `from` it (a lower bound, or the start of "from X to Y"), or `between` it and a second number.
 */
export type Comparison = 'around' | 'above' | 'atLeast' | 'below' | 'atMost' | 'exact' | 'from' | 'between';

/** Which unit a comparison word is limited to: "faster" only speaks of tempo, "before" only of time. */
type Scope = 'bpm' | 'year' | 'any';

type Phrase = { words: string[]; comparison: Comparison; scope: Scope };

const phrase = (text: string, comparison: Comparison, scope: Scope = 'any'): Phrase => ({
  words: text.split(' '),
  comparison,
  scope,
});

const PREFIXES: Phrase[] = [
  phrase('between', 'between'),
  phrase('from', 'from'),
  ...['around', 'about', 'approximately', 'approx', 'roughly', 'circa', 'ca', 'near', 'close to'].map((w) =>
    phrase(w, 'around'),
  ),
  ...['over', 'above', 'more than', 'greater than', 'higher than'].map((w) => phrase(w, 'above')),
  ...['faster than', 'quicker than'].map((w) => phrase(w, 'above', 'bpm')),
  ...['after', 'later than', 'newer than', 'post'].map((w) => phrase(w, 'above', 'year')),
  ...['at least', 'min', 'minimum'].map((w) => phrase(w, 'atLeast')),
  phrase('since', 'atLeast', 'year'),
  ...['under', 'below', 'less than', 'lower than'].map((w) => phrase(w, 'below')),
  phrase('slower than', 'below', 'bpm'),
  ...['before', 'earlier than', 'older than', 'pre', 'prior to'].map((w) => phrase(w, 'below', 'year')),
  ...['at most', 'up to', 'max', 'maximum', 'no more than', 'not more than'].map((w) => phrase(w, 'atMost')),
  ...['until', 'till', 'through'].map((w) => phrase(w, 'atMost', 'year')),
  ...['in', 'during'].map((w) => phrase(w, 'exact', 'year')),
];

const SUFFIXES: Phrase[] = [
  ...['plus', 'or more', 'or higher', 'and up', 'and above', 'and over', 'or over'].map((w) =>
    phrase(w, 'atLeast'),
  ),
  ...['or faster', 'and faster'].map((w) => phrase(w, 'atLeast', 'bpm')),
  ...[
    'or later',
    'and later',
    'or after',
    'and after',
    'onwards',
    'onward',
    'forward',
    'or newer',
    'and newer',
    'and beyond',
  ].map((w) => phrase(w, 'atLeast', 'year')),
  ...['or less', 'or lower', 'and under', 'and below', 'or under', 'or below'].map((w) =>
    phrase(w, 'atMost'),
  ),
  ...['or slower', 'and slower'].map((w) => phrase(w, 'atMost', 'bpm')),
  ...['or earlier', 'and earlier', 'or before', 'and before', 'or older', 'and older'].map((w) =>
    phrase(w, 'atMost', 'year'),
  ),
  phrase('ish', 'around'),
].sort((a, b) => b.words.length - a.words.length);

PREFIXES.sort((a, b) => b.words.length - a.words.length);

/** Words that join the two ends of a range: "90 to 100", "2019-2021", "between 2019 and 2021". */
export const RANGE_JOINS = new Set(['to', 'and', 'until', 'till', 'through']);

export type Found = { comparison: Comparison; length: number; scope: Scope };

/** Whether the tokens from `i` on spell `words`. */
export function spells(tokens: readonly Token[], i: number, words: readonly string[]): boolean {
  return words.every((w, k) => tokens[i + k]?.norm === w);
}

function find(list: Phrase[], tokens: readonly Token[], i: number, unit: 'bpm' | 'year'): Found | null {
  const hit = list.find((p) => (p.scope === 'any' || p.scope === unit) && spells(tokens, i, p.words));
  return hit ? { comparison: hit.comparison, length: hit.words.length, scope: hit.scope } : null;
}

/** A comparison written before a number ("faster than 128", "before 2010"). */
export const prefixAt = (tokens: readonly Token[], i: number, unit: 'bpm' | 'year') =>
  find(PREFIXES, tokens, i, unit);

/** A comparison written after a number ("120+", "2015 onwards", "100 bpm or less"). */
export const suffixAt = (tokens: readonly Token[], i: number, unit: 'bpm' | 'year') =>
  find(SUFFIXES, tokens, i, unit);

/**
 * The bounds a comparison gives over [low, high] (one number: low = high; a decade: its years). Strict
 * comparisons step by one whole unit; `around` widens by `slack`.
 */
export function bounds(comparison: Comparison, low: number, high: number, slack: number): Range {
  switch (comparison) {
    case 'around':
      return { min: low - slack, max: high + slack };
    case 'above':
      return { min: high + 1, max: null };
    case 'atLeast':
      return { min: low, max: null };
    case 'below':
      return { min: null, max: low - 1 };
    case 'atMost':
      return { min: null, max: high };
    default:
      return { min: low, max: high };
  }
}
