import { ALBUM_TYPES } from '../../db/schema/index.ts';
import { companyAliases, statusOpposites } from './derived-forms.ts';
import { addValue, emptyFilters, type Ignored, type Interpretation, type Match } from './interpretation.ts';
import {
  FIELD_PRIORITY,
  type ListField,
  SEARCH_KINDS,
  type SearchKind,
  type StatusOption,
  SYNONYMS_OF,
  type Vocabulary,
} from './kinds.ts';
import { CONNECTORS, FILLERS, RELEASE_TYPE_FORMS, RELEASE_WORDS, STOPWORDS, TEMPO_WORDS } from './lexicon.ts';
import { MatchBudget, type MatchLimits } from './match-budget.ts';
import { findCues, resolveNegations, type Unit } from './negation.ts';
import { fold, type Token, tokenise } from './normalise.ts';
import {
  combineRanges,
  findRanges,
  negateRange,
  type Range,
  type RangeHit,
  type RangeKind,
} from './numbers/ranges.ts';
import { boundedValues } from './vocabulary-limits.ts';
import { type Candidate, VocabularyIndex } from './vocabulary-matcher.ts';

/** What a query is read against: the caller's vocabulary and the statuses of the board searched. */
export type ParseContext = {
  kind: SearchKind;
  query: string;
  vocabulary: Vocabulary;
  statuses: readonly StatusOption[];
  /** "this year" and "last year" are counted from here. */
  today: Date;
  /** What typo matching may cost; MATCH_LIMITS when left out. */
  limits?: MatchLimits;
};

type Pick = Candidate & { field: ListField };

const HOW_RANK = { exact: 0, synonym: 1, fuzzy: 2 } as const;

/**
 * Exact and synonym readings beat typo readings; then longer phrases beat shorter ones ("drum and bass"
 * over "bass"), then the list that comes first in FIELD_PRIORITY.
 */
function byStrength(a: Pick, b: Pick): number {
  const fuzzy = Number(a.how === 'fuzzy') - Number(b.how === 'fuzzy');
  return (
    fuzzy ||
    b.end - b.start - (a.end - a.start) ||
    HOW_RANK[a.how] - HOW_RANK[b.how] ||
    a.distance - b.distance ||
    FIELD_PRIORITY.indexOf(a.field) - FIELD_PRIORITY.indexOf(b.field) ||
    a.start - b.start
  );
}

const releaseTypeEntries = () =>
  ALBUM_TYPES.map((value) => ({ value, forms: RELEASE_TYPE_FORMS[value] ?? [] }));
/** A tempo word's value is its place in TEMPO_WORDS. */
const tempoEntries = () => TEMPO_WORDS.map(({ forms }, n) => ({ value: String(n), forms }));

/** Lists of companies, whose values are also named by their distinctive words ("Warp" for Warp Records). */
const COMPANY_FIELDS: ReadonlySet<ListField> = new Set(['labels', 'distributors']);

/** The index of a list's values; the list's JSON names it in the cache. */
function indexOf(context: ParseContext, field: ListField): VocabularyIndex | null {
  if (field === 'types') return VocabularyIndex.of('built-in release types', releaseTypeEntries);
  if (field === 'tempo') return VocabularyIndex.of('built-in tempo words', tempoEntries);
  if (field === 'statuses') {
    const pairs = context.statuses.map((s): [string, string] => [s.id, s.name]);
    if (pairs.length === 0) return null;
    const entries = () =>
      pairs.map(([id, name]) => ({ value: id, forms: [id, name], opposites: statusOpposites([id, name]) }));
    return VocabularyIndex.of(JSON.stringify(pairs), entries, SYNONYMS_OF.statuses);
  }
  const values = boundedValues(context.vocabulary[field] ?? []);
  if (values.length === 0) return null;
  if (COMPANY_FIELDS.has(field)) {
    const entries = () => values.map((value) => ({ value, forms: [value], aliases: companyAliases(value) }));
    return VocabularyIndex.of(`companies ${JSON.stringify(values)}`, entries);
  }
  const entries = () => values.map((value) => ({ value, forms: [value] }));
  return VocabularyIndex.of(JSON.stringify(values), entries, SYNONYMS_OF[field]);
}

/** The strongest non-overlapping readings of free tokens as values of the vocabulary lists and statuses. */
function pickMatches(
  tokens: readonly Token[],
  context: ParseContext,
  taken: boolean[],
  budget: MatchBudget,
): Pick[] {
  const kind = SEARCH_KINDS[context.kind];
  const fields: ListField[] = [
    ...kind.fields,
    'statuses',
    ...(kind.releaseTypes ? (['types'] as const) : []),
    // Read for albums too, so that they are listed as ignored rather than taken as text.
    'tempo',
  ];
  const candidates = fields.flatMap((field) => {
    const index = indexOf(context, field);
    return index ? index.candidates(tokens, (i) => !taken[i], budget).map((c) => ({ ...c, field })) : [];
  });
  const picks: Pick[] = [];
  for (const candidate of candidates.sort(byStrength)) {
    if (taken.slice(candidate.start, candidate.end).some(Boolean)) continue;
    taken.fill(true, candidate.start, candidate.end);
    picks.push(candidate);
  }
  return picks;
}

/** "released in 2020", "releases from 2022": the word says which date the year is about, not a status. */
function foldReleaseWordsIntoYears(tokens: readonly Token[], picks: Pick[], ranges: RangeHit[]): Pick[] {
  return picks.filter((pick) => {
    const year = ranges.find((r) => r.kind === 'year' && r.start === pick.end);
    const releaseWord = tokens.slice(pick.start, pick.end).every((t) => RELEASE_WORDS.has(t.norm));
    if (pick.field !== 'statuses' || !year || !releaseWord) return true;
    year.start = pick.start;
    return false;
  });
}

type Refs = { ranges: RangeHit[]; picks: Pick[] };

const isFiller = (norm: string) => STOPWORDS.has(norm) || FILLERS.has(norm);

/** The query as a sequence of units, with `ref` pointing into `refs` for ranges and matches. */
function unitsOf(tokens: readonly Token[], refs: Refs, cues: [number, number][]) {
  const at = new Map<number, Unit & { ref?: number }>();
  const sep = (i: number) => tokens[i]!.sep;
  refs.ranges.forEach((r, ref) => {
    at.set(r.start, { kind: 'range', start: r.start, end: r.end, sep: sep(r.start), ref });
  });
  refs.picks.forEach((p, ref) => {
    at.set(p.start, { kind: 'match', start: p.start, end: p.end, sep: sep(p.start), tag: p.field, ref });
  });
  for (const [start, end] of cues) at.set(start, { kind: 'cue', start, end, sep: sep(start) });
  const units: (Unit & { ref?: number })[] = [];
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i]!;
    const unit = at.get(i) ?? {
      kind: CONNECTORS.has(token.norm) ? 'connector' : isFiller(token.norm) ? 'filler' : 'word',
      start: i,
      end: i + 1,
      sep: token.sep,
      tag: token.norm,
    };
    units.push(unit);
    i = unit.end;
  }
  return units;
}

type Reading = {
  context: ParseContext;
  tokens: Token[];
  units: (Unit & { ref?: number })[];
  ranges: RangeHit[];
  picks: Pick[];
  /** cue unit -> the units it negates */
  negations: Map<number, number[]>;
  budget: MatchBudget;
};

const UNREAD_REASON = 'not compared with the vocabulary for typos: the query used up its matching budget';

/** Filters, matches and what was left unused, from the units of a query. */
function interpretationOf({
  context,
  tokens,
  units,
  ranges,
  picks,
  negations,
  budget,
}: Reading): Interpretation {
  const negatedBy = new Map<number, number>();
  for (const [cue, targets] of negations) for (const t of targets) negatedBy.set(t, cue);
  const phrase = (u: Unit) => context.query.slice(tokens[u.start]!.from, tokens[u.end - 1]!.to);
  const filters = emptyFilters(context.kind);
  const matches: Match[] = [];
  const ignored: Ignored[] = [];
  const applied: Record<'bpm' | 'year', Range[]> = { bpm: [], year: [] };
  const seenText = new Set<string>();

  const applyRange = (kind: RangeKind, found: Range, negated: boolean, words: string[]) => {
    const range = negated ? negateRange(found) : found;
    if (kind === 'bpm' && !SEARCH_KINDS[context.kind].tempo)
      ignored.push({ words, reason: 'albums have no tempo' });
    else if (!range) ignored.push({ words, reason: 'a negated range with two ends is not supported' });
    else {
      applied[kind].push(range);
      matches.push({ filter: kind, range, negated, words, how: 'pattern' });
    }
  };

  units.forEach((unit, n) => {
    const cue = negatedBy.get(n);
    const negated = cue !== undefined;
    const words = [...(negated ? [phrase(units[cue]!)] : []), phrase(unit)];
    if (unit.kind === 'match') {
      const pick = picks[unit.ref!]!;
      if (pick.field === 'tempo') {
        applyRange('bpm', TEMPO_WORDS[Number(pick.values[0])]!.range, negated, words);
        return;
      }
      // A word that denies a value ("unreleased") is undone by a cue before it.
      const denied = negated !== pick.negated;
      for (const value of pick.values) {
        addValue(filters[pick.field]!, value, denied);
        matches.push({ filter: pick.field, value, negated: denied, words, how: pick.how });
      }
    } else if (unit.kind === 'range') {
      const hit = ranges[unit.ref!]!;
      applyRange(hit.kind, hit.range, negated, words);
    } else if (unit.kind === 'word') {
      const word = phrase(unit);
      const key = `${negated}:${fold(word)}`;
      if (seenText.has(key)) return;
      seenText.add(key);
      addValue(filters.text, word, negated);
      matches.push({ filter: 'text', value: word, negated, words, how: 'text' });
      if (budget.unread(unit.start)) ignored.push({ words: [word], reason: UNREAD_REASON });
    } else if (unit.kind === 'cue' && negations.get(n)?.length === 0) {
      ignored.push({ words, reason: 'nothing to negate follows it' });
    }
  });
  filters.year = combineRanges(applied.year);
  filters.bpm = combineRanges(applied.bpm);
  return { filters, matches, ignored };
}

/**
 * Reads a search sentence into filters, offline and deterministically: numbers first (tempo, years),
 * then vocabulary values and statuses, then negation cues, and what is left is free text. Typo matching
 * stops when the query's MatchBudget runs out; the words it left unread are listed as ignored.
 */
export function parseQuery(context: ParseContext): Interpretation {
  const budget = new MatchBudget(context.limits);
  const tokens = tokenise(context.query);
  const taken = new Array<boolean>(tokens.length).fill(false);
  const ranges = findRanges(tokens, context.today);
  for (const r of ranges) taken.fill(true, r.start, r.end);
  const picks = foldReleaseWordsIntoYears(tokens, pickMatches(tokens, context, taken, budget), ranges);
  const cues = findCues(tokens, (i) => !taken[i]);
  const units = unitsOf(tokens, { ranges, picks }, cues);
  const negations = resolveNegations(units);
  return interpretationOf({ context, tokens, units, ranges, picks, negations, budget });
}
