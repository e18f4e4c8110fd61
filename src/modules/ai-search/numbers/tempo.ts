import type { Token } from '../normalise.ts';
import { bounds, type Hit, prefixAt, RANGE_JOINS, spells, suffixAt } from './comparators.ts';

const UNITS = [['bpm'], ['bpms'], ['beats', 'per', 'minute'], ['beat', 'per', 'minute'], ['tempo']];
const LINKS = new Set(['of', 'at', 'is']);
/** Tempos people mean; outside this a number next to "bpm" is more likely something else. */
const PLAUSIBLE = { min: 20, max: 400 };
const AROUND_SLACK = 5;

function unitLength(tokens: readonly Token[], i: number): number {
  return UNITS.find((unit) => spells(tokens, i, unit))?.length ?? 0;
}

/**
 * A tempo written at `i`: "around 120 bpm", "between 90 and 100 bpm", "bpm 90-100", "faster than 128",
 * "120+ bpm", "tempo of 100 or less". A number needs "bpm"/"tempo" next to it, or a tempo comparison
 * ("faster than"). Bounds are whole BPM.
 */
export function tempoAt(tokens: readonly Token[], i: number): Hit | null {
  let j = i;
  const unitBefore = unitLength(tokens, j);
  if (unitBefore > 0) {
    j += unitBefore;
    if (LINKS.has(tokens[j]?.norm ?? '')) j++;
  }
  const prefix = prefixAt(tokens, j, 'bpm');
  if (prefix) j += prefix.length;
  const first = tokens[j]?.number;
  if (first === null || first === undefined) return null;
  j++;
  let second: number | null = null;
  const joinable = !prefix || prefix.comparison === 'between' || prefix.comparison === 'from';
  if (joinable && RANGE_JOINS.has(tokens[j]?.norm ?? '') && typeof tokens[j + 1]?.number === 'number') {
    second = tokens[j + 1]!.number;
    j += 2;
  }
  if (prefix?.comparison === 'between' && second === null) return null;
  const suffixAllowed = !prefix && second === null;
  let suffix = suffixAllowed ? suffixAt(tokens, j, 'bpm') : null;
  if (suffix) j += suffix.length;
  const unitAfter = unitLength(tokens, j);
  j += unitAfter;
  if (suffixAllowed && !suffix) {
    suffix = suffixAt(tokens, j, 'bpm');
    if (suffix) j += suffix.length;
  }
  if (unitBefore + unitAfter === 0 && prefix?.scope !== 'bpm' && suffix?.scope !== 'bpm') return null;
  const values = [first, second ?? first].map(Math.round);
  if (values.some((v) => v < PLAUSIBLE.min || v > PLAUSIBLE.max)) return null;
  let comparison = prefix?.comparison ?? suffix?.comparison ?? 'exact';
  // "from 120 bpm" alone is a floor; "from 90 to 100 bpm" is a range.
  if (comparison === 'from' && second === null) comparison = 'atLeast';
  const range = bounds(comparison, Math.min(...values), Math.max(...values), AROUND_SLACK);
  return { range, start: i, end: j };
}
