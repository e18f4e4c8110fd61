import { LRUCache } from 'lru-cache';
import { editDistance, typoBudget } from './fuzzy.ts';
import {
  isFunctionWord,
  isLexiconWord,
  isNegationWord,
  keysOf,
  type PhraseKeys,
  phraseKeys,
  type SynonymField,
  synonymGroupOf,
} from './lexicon.ts';
import type { MatchBudget } from './match-budget.ts';
import type { Token } from './normalise.ts';

/**
 * A value a filter can take and the ways it may be written: its `forms` (for a status: its id and its
 * name), `aliases` that name it less surely (a label's distinctive words), and `opposites` that name its
 * denial ("unreleased"). Aliases and opposites read as synonyms.
 */
export type Entry = {
  value: string;
  forms: readonly string[];
  aliases?: readonly string[];
  opposites?: readonly string[];
};

export type LookupHow = 'exact' | 'synonym' | 'fuzzy';

/** Tokens [start, end) of a query that name one or more values, or deny them when `negated`. */
export type Candidate = {
  start: number;
  end: number;
  values: string[];
  how: LookupHow;
  distance: number;
  negated: boolean;
};

type Surface = PhraseKeys & { value: string; synonym: boolean; negated: boolean };
type SpanReading = Omit<Candidate, 'start' | 'end'>;

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
  /** Short surfaces by their letters with doubled letters written once ("jazz" as "jaz"). */
  private readonly bySqueezed = new Map<string, Surface[]>();
  private readonly longest: number;

  constructor(entries: readonly Entry[], field?: SynonymField) {
    let longest = 1;
    const add = (keys: PhraseKeys, value: string, synonym: boolean, negated: boolean) => {
      if (keys.compact === '') return;
      const { key, compact, size } = keys;
      const surface: Surface = { key, compact, size, value, synonym, negated };
      push(this.byKey, key, surface);
      if (compact !== key) push(this.byKey, compact, surface);
      push(this.byShape, shapeOf(compact, compact.length), surface);
      const squeezed = squeeze(compact);
      // Only a short word is read by its doubled letters, so only a short squeezed form can be reached.
      if (typoBudget(squeezed.length) === 0) push(this.bySqueezed, squeezed, surface);
      longest = Math.max(longest, size);
      this.surfaces++;
    };
    const addForm = (form: string, value: string, synonym: boolean, negated: boolean) => {
      const keys = phraseKeys(form);
      add(keys, value, synonym, negated);
      if (!field) return;
      // Another member equal to the form itself is skipped: it would only repeat the form as a synonym.
      for (const other of synonymGroupOf(field, keys))
        if (other.key !== keys.key) add(other, value, true, negated);
    };
    for (const { value, forms, aliases = [], opposites = [] } of entries) {
      for (const form of forms) addForm(form, value, false, false);
      for (const alias of aliases) add(phraseKeys(alias), value, true, false);
      for (const opposite of opposites) addForm(opposite, value, true, true);
    }
    this.longest = Math.min(longest + 1, MAX_SPAN);
  }

  /**
   * Every span of `tokens` made only of tokens where `free(i)`, with the values it names. Typo readings
   * are tried while `budget` allows; spans it cuts short are noted in it.
   */
  candidates(tokens: readonly Token[], free: (i: number) => boolean, budget: MatchBudget): Candidate[] {
    const found: Candidate[] = [];
    for (let start = 0; start < tokens.length; start++) {
      for (let end = start + 1; end <= Math.min(tokens.length, start + this.longest); end++) {
        if (!free(end - 1) || (end - 1 > start && tokens[end - 1]!.sep !== '')) break;
        const span = tokens.slice(start, end);
        const candidate = this.exact(span) ?? this.fuzzyWithin(span, budget);
        if (candidate === 'unread') budget.skip(start, end);
        else if (candidate) found.push({ start, end, ...candidate });
      }
    }
    return found;
  }

  /** The typo reading of a span, or 'unread' when the budget ran out before it was complete. */
  private fuzzyWithin(span: Token[], budget: MatchBudget): SpanReading | 'unread' | undefined {
    if (budget.exhausted()) return 'unread';
    const found = this.fuzzy(span, budget);
    return budget.ranOut ? 'unread' : found;
  }

  private exact(span: Token[]): SpanReading | undefined {
    if (span.length === 1 && !plainWordAllowed(span[0]!)) return undefined;
    const keys = keysOf(span);
    const surfaces = [...(this.byKey.get(keys.key) ?? []), ...(this.byKey.get(keys.compact) ?? [])];
    if (surfaces.length === 0) return undefined;
    // A value written as such beats another value's synonym ("rap" in a vocabulary that has Rap).
    const own = surfaces.filter((s) => !s.synonym);
    return {
      ...reading(own.length > 0 ? own : surfaces),
      how: own.length > 0 ? 'exact' : 'synonym',
      distance: 0,
    };
  }

  private fuzzy(span: Token[], budget: MatchBudget): SpanReading | undefined {
    const edges = [span[0]!, span[span.length - 1]!];
    if (span.some((t) => t.number !== null) || edges.some((t) => isLexiconWord(t.norm))) return undefined;
    const { compact, size } = keysOf(span);
    const typos = typoBudget(compact.length);
    if (typos === 0) return this.doubledLetters(compact, size, budget);
    let best: Surface[] = [];
    let bestDistance = typos + 1;
    // Typos rarely hit the first letter; requiring it keeps look-alike words apart (and the scan short).
    for (let length = compact.length - typos; length <= compact.length + typos; length++) {
      for (const surface of this.byShape.get(shapeOf(compact, length)) ?? []) {
        if (Math.abs(surface.size - size) > 1) continue;
        const allowed = Math.min(typos, typoBudget(length));
        if (allowed === 0) continue;
        if (!budget.allows()) return undefined;
        const distance = editDistance(compact, surface.compact, allowed);
        if (distance > allowed || distance > bestDistance) continue;
        if (distance < bestDistance) best = [];
        bestDistance = distance;
        best.push(surface);
      }
    }
    if (best.length === 0) return undefined;
    return { ...reading(best), how: 'fuzzy', distance: bestDistance };
  }

  /**
   * The typo reading of a word too short for edit distances: a value it equals once doubled letters are
   * written once ("jaz" for "jazz", "chil" for "chill"), which rarely turns one real word into another.
   */
  private doubledLetters(compact: string, size: number, budget: MatchBudget): SpanReading | undefined {
    if (compact.length < MIN_SQUEEZED) return undefined;
    const found = (this.bySqueezed.get(squeeze(compact)) ?? []).filter((s) => Math.abs(s.size - size) <= 1);
    if (found.length === 0 || !budget.allows(found.length)) return undefined;
    const distance = Math.min(...found.map((s) => editDistance(compact, s.compact, s.compact.length)));
    return { ...reading(found), how: 'fuzzy', distance };
  }
}

/** The values surfaces name; those that deny a value count only when no surface names one plainly. */
function reading(surfaces: Surface[]): { values: string[]; negated: boolean } {
  const plain = surfaces.filter((s) => !s.negated);
  const chosen = plain.length > 0 ? plain : surfaces;
  return { values: unique(chosen.map((s) => s.value)), negated: plain.length === 0 };
}

/** Below this length a word is not read as a typo at all. */
const MIN_SQUEEZED = 3;
const squeeze = (compact: string) => compact.replace(/(.)\1+/g, '$1');

const shapeOf = (compact: string, length: number) => `${compact[0]}${length}`;

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
