import { NEGATION_CUES } from './lexicon.ts';
import type { Token } from './normalise.ts';
import { spells } from './numbers/comparators.ts';

/**
 * A stretch of the query as the parser sees it: a vocabulary `match` (with its list), a `range`, a
 * content `word` left over, a `filler` (stopword or filler word), a `connector` (and/or/nor) or a negation
 * `cue`.
 */
export type Unit = {
  kind: 'match' | 'range' | 'word' | 'filler' | 'connector' | 'cue';
  start: number;
  end: number;
  /** The separator before the unit's first token. */
  sep: Token['sep'];
  /** For a match: its list; for a connector: the word. */
  tag?: string;
};

/** The negation cues among the free tokens: [start, end) of each, left to right. */
export function findCues(tokens: readonly Token[], free: (i: number) => boolean): [number, number][] {
  const cues: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const cue = NEGATION_CUES.find((words) => spells(tokens, i, words) && words.every((_, k) => free(i + k)));
    if (!cue) continue;
    cues.push([i, i + cue.length]);
    i += cue.length - 1;
  }
  return cues;
}

const MAX_FILLERS = 2;
const isTarget = (u: Unit | undefined) => u?.kind === 'match' || u?.kind === 'word';
const sameKind = (a: Unit, b: Unit) => a.kind === b.kind && a.tag === b.tag;

/** The unit a cue negates first: the next match, word or range, past at most two fillers in its clause. */
function firstTarget(units: readonly Unit[], cue: number): number | null {
  let j = cue + 1;
  for (let skipped = 0; units[j]?.kind === 'filler' && skipped < MAX_FILLERS; skipped++) {
    if (units[j]!.sep === '.') return null;
    j++;
  }
  const unit = units[j];
  if (!unit || unit.sep === '.' || !(isTarget(unit) || unit.kind === 'range')) return null;
  return j;
}

/**
 * What each cue negates (unit indices). A cue takes the next match, word or range; from a match or
 * word it goes on over a run of adjacent words ("without heavy guitars"), over "or"/"nor" to any match
 * or word ("not jazz or blues"), and over "and" or a comma only to one of the same list ("without jazz
 * and blues", but "no features and Spanish" negates only features).
 */
export function resolveNegations(units: readonly Unit[]): Map<number, number[]> {
  const targets = new Map<number, number[]>();
  units.forEach((unit, cue) => {
    if (unit.kind !== 'cue') return;
    const first = firstTarget(units, cue);
    const negated = first === null ? [] : [first];
    targets.set(cue, negated);
    if (first === null || units[first]!.kind === 'range') return;
    let last = units[first]!;
    let k = first + 1;
    while (k < units.length) {
      const next = units[k]!;
      if (last.kind === 'word' && next.kind === 'word' && next.sep === '') {
        negated.push(k);
        last = next;
        k++;
        continue;
      }
      let m = k;
      let connector: string | undefined;
      if (next.kind === 'connector' && next.sep !== '.') {
        connector = next.tag;
        m = k + 1;
      } else if (next.sep === ',' && isTarget(next)) connector = ',';
      else break;
      if (units[m]?.kind === 'filler' && units[m]!.sep === '') m++;
      const candidate = units[m];
      if (!candidate || candidate.sep === '.' || !isTarget(candidate)) break;
      if (connector !== 'or' && connector !== 'nor' && !sameKind(last, candidate)) break;
      negated.push(m);
      last = candidate;
      k = m + 1;
    }
  });
  return targets;
}
