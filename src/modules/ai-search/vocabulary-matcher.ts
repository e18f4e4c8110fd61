import { LRUCache } from 'lru-cache';
import { editDistance, typoBudget } from './fuzzy.ts';
import {
  isFunctionWord,
  isNegationWord,
  keysOf,
  type PhraseKeys,
  phraseKeys,
  type SynonymField,
  synonymGroupOf,
} from './lexicon.ts';
import type { Token } from './normalise.ts';

/** A value a filter can take, and the ways it may be written (for a status: its id and its name). */
export type Entry = { value: string; forms: readonly string[] };

export type LookupHow = 'exact' | 'synonym' | 'fuzzy';

/** Tokens [start, end) of a query that name one or more values. */
export type Candidate = { start: number; end: number; values: string[]; how: LookupHow; distance: number };

type Surface = PhraseKeys & { value: string; synonym: boolean };

const MAX_SPAN = 6;
const UPPERCASE_CODE = /^\p{Lu}{2,3}$/u;

/** Whether a one-word span may name a value although the word is a function word ("IT", "NO"). */
function plainWordAllowed(token: Token): boolean {
  if (!isFunctionWord(token.norm)) return true;
  return UPPERCASE_CODE.test(token.raw) && !isNegationWord(token.norm);
}

/** Looks up the values of one vocabulary list in a query: exactly, through synonyms, or with typos. */
export class VocabularyIndex {
  /** Clients send the same vocabulary with every query: its index is built once, bounded by total size. */
  private static readonly cache = new LRUCache<string, VocabularyIndex>({
    maxSize: 200_000,
    sizeCalculation: (index) => Math.max(1, index.surfaces),
  });

  /**
   * The index of the entries `key` stands for (an unambiguous text of them, such as their JSON), from the
   * cache when the same list was indexed before.
   */
  static of(key: string, entries: () => readonly Entry[], field?: SynonymField): VocabularyIndex {
    const cacheKey = `${field ?? ''}:${key}`;
    let index = VocabularyIndex.cache.get(cacheKey);
    if (!index) {
      index = new VocabularyIndex(entries(), field);
      VocabularyIndex.cache.set(cacheKey, index);
    }
    return index;
  }

  private surfaces = 0;
  private readonly byKey = new Map<string, Surface[]>();
  /** Surfaces by first letter and length: the only ones a typo reading can reach. */
  private readonly byShape = new Map<string, Surface[]>();
  private readonly longest: number;

  constructor(entries: readonly Entry[], field?: SynonymField) {
    let longest = 1;
    const add = (keys: PhraseKeys, value: string, synonym: boolean) => {
      if (keys.compact === '') return;
      const surface: Surface = { key: keys.key, compact: keys.compact, size: keys.size, value, synonym };
      push(this.byKey, keys.key, surface);
      if (keys.compact !== keys.key) push(this.byKey, keys.compact, surface);
      push(this.byShape, shapeOf(keys.compact, keys.compact.length), surface);
      longest = Math.max(longest, keys.size);
      this.surfaces++;
    };
    for (const entry of entries) {
      for (const form of entry.forms) {
        const keys = phraseKeys(form);
        add(keys, entry.value, false);
        if (!field) continue;
        // Another member equal to the form itself is skipped: it would only repeat the form as a synonym.
        for (const synonym of synonymGroupOf(field, keys))
          if (synonym.key !== keys.key) add(synonym, entry.value, true);
      }
    }
    this.longest = Math.min(longest + 1, MAX_SPAN);
  }

  /** Every span of `tokens` made only of tokens where `free(i)`, with the values it names. */
  candidates(tokens: readonly Token[], free: (i: number) => boolean): Candidate[] {
    const found: Candidate[] = [];
    for (let start = 0; start < tokens.length; start++) {
      for (let end = start + 1; end <= Math.min(tokens.length, start + this.longest); end++) {
        if (!free(end - 1) || (end - 1 > start && tokens[end - 1]!.sep !== '')) break;
        const span = tokens.slice(start, end);
        const candidate = this.exact(span) ?? this.fuzzy(span);
        if (candidate) found.push({ start, end, ...candidate });
      }
    }
    return found;
  }

  private exact(span: Token[]): Omit<Candidate, 'start' | 'end'> | undefined {
    if (span.length === 1 && !plainWordAllowed(span[0]!)) return undefined;
    const keys = keysOf(span);
    const surfaces = [...(this.byKey.get(keys.key) ?? []), ...(this.byKey.get(keys.compact) ?? [])];
    if (surfaces.length === 0) return undefined;
    // A value written as such beats another value's synonym ("rap" in a vocabulary that has Rap).
    const own = surfaces.filter((s) => !s.synonym);
    const chosen = own.length > 0 ? own : surfaces;
    return {
      values: unique(chosen.map((s) => s.value)),
      how: own.length > 0 ? 'exact' : 'synonym',
      distance: 0,
    };
  }

  private fuzzy(span: Token[]): Omit<Candidate, 'start' | 'end'> | undefined {
    const edges = [span[0]!, span[span.length - 1]!];
    if (span.some((t) => t.number !== null) || edges.some((t) => isFunctionWord(t.norm))) return undefined;
    const { compact, size } = keysOf(span);
    const budget = typoBudget(compact.length);
    if (budget === 0) return undefined;
    let best: Surface[] = [];
    let bestDistance = budget + 1;
    // Typos rarely hit the first letter; requiring it keeps look-alike words apart (and the scan short).
    for (let length = compact.length - budget; length <= compact.length + budget; length++) {
      for (const surface of this.byShape.get(shapeOf(compact, length)) ?? []) {
        if (Math.abs(surface.size - size) > 1) continue;
        const allowed = Math.min(budget, typoBudget(length));
        if (allowed === 0) continue;
        const distance = editDistance(compact, surface.compact, allowed);
        if (distance > allowed || distance > bestDistance) continue;
        if (distance < bestDistance) best = [];
        bestDistance = distance;
        best.push(surface);
      }
    }
    if (best.length === 0) return undefined;
    return { values: unique(best.map((s) => s.value)), how: 'fuzzy', distance: bestDistance };
  }
}

const shapeOf = (compact: string, length: number) => `${compact[0]}${length}`;

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
