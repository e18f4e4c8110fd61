import { SEARCH_KINDS, type SearchKind, VOCABULARY_FIELDS, type VocabularyField } from './kinds.ts';
import type { Range } from './numbers/ranges.ts';

export type ListFilter = { include: string[]; exclude: string[] };

/** The structured meaning of a query. Values of vocabulary lists are always spelled as in the vocabulary. */
export type Filters = Partial<Record<VocabularyField, ListFilter>> & {
  /** Status ids. */
  statuses: ListFilter;
  /** Words outside the vocabulary, as typed: matched against titles and artists. */
  text: ListFilter;
  year: Range | null;
  /** Tracks only (always null for albums, which have no tempo). */
  bpm: Range | null;
  /** Albums only: release types (album, ep, single, compilation). */
  types?: ListFilter;
};

export const FILTER_NAMES = [...VOCABULARY_FIELDS, 'statuses', 'types', 'text', 'year', 'bpm'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];
export const MATCH_HOWS = ['exact', 'synonym', 'fuzzy', 'pattern', 'text', 'llm'] as const;
export type MatchHow = (typeof MATCH_HOWS)[number];

/** Why a filter holds a value: the parts of the query that produced it, as typed. */
export type Match = {
  filter: FilterName;
  value?: string;
  range?: Range;
  negated: boolean;
  words: string[];
  how: MatchHow;
};

/** Parts of the query that were understood but could not become a filter. */
export type Ignored = { words: string[]; reason: string };

export type Interpretation = { filters: Filters; matches: Match[]; ignored: Ignored[] };

export function emptyFilters(kind: SearchKind): Filters {
  const filters: Filters = {
    statuses: { include: [], exclude: [] },
    text: { include: [], exclude: [] },
    year: null,
    bpm: null,
  };
  for (const field of SEARCH_KINDS[kind].fields) filters[field] = { include: [], exclude: [] };
  if (SEARCH_KINDS[kind].releaseTypes) filters.types = { include: [], exclude: [] };
  return filters;
}

/** Adds a value once (by exact spelling); an excluded value is never also included. */
export function addValue(list: ListFilter, value: string, negated: boolean): void {
  const target = negated ? list.exclude : list.include;
  if (!target.includes(value)) target.push(value);
  if (negated) list.include = list.include.filter((v) => v !== value);
  else if (list.exclude.includes(value)) list.include = list.include.filter((v) => v !== value);
}
