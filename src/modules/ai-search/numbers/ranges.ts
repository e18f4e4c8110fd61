import type { Token } from '../normalise.ts';
import type { Hit, Range } from './comparators.ts';
import { tempoAt } from './tempo.ts';
import { yearAt } from './years.ts';

export type { Range };
export type RangeKind = 'bpm' | 'year';
export type RangeHit = Hit & { kind: RangeKind };

/** Every tempo and year range of a query, left to right, none overlapping. */
export function findRanges(tokens: readonly Token[], today: Date): RangeHit[] {
  const hits: RangeHit[] = [];
  let i = 0;
  while (i < tokens.length) {
    const tempo = tempoAt(tokens, i);
    const year = tempo ? null : yearAt(tokens, i, today);
    const hit: RangeHit | null = tempo ? { kind: 'bpm', ...tempo } : year ? { kind: 'year', ...year } : null;
    if (hit) hits.push(hit);
    i = hit ? hit.end : i + 1;
  }
  return hits;
}

/** All ranges must hold (their intersection); when they cannot all hold, any may (their hull). */
export function combineRanges(ranges: readonly Range[]): Range | null {
  if (ranges.length === 0) return null;
  const mins = ranges.map((r) => r.min);
  const maxs = ranges.map((r) => r.max);
  const present = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
  const tightest = {
    min: present(mins).length ? Math.max(...present(mins)) : null,
    max: present(maxs).length ? Math.min(...present(maxs)) : null,
  };
  if (tightest.min === null || tightest.max === null || tightest.min <= tightest.max) return tightest;
  return {
    min: mins.includes(null) ? null : Math.min(...present(mins)),
    max: maxs.includes(null) ? null : Math.max(...present(maxs)),
  };
}

/** The opposite of a one-sided range ("not before 2010" is "2010 or later"); null when it has two sides. */
export function negateRange(range: Range): Range | null {
  if (range.min !== null && range.max === null) return { min: null, max: range.min - 1 };
  if (range.max !== null && range.min === null) return { min: range.max + 1, max: null };
  return null;
}
