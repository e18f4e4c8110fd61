import { type Static, type TOptional, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ALBUM_TYPES } from '../../db/schema/index.ts';
import {
  addValue,
  emptyFilters,
  type FilterName,
  type Filters,
  type Ignored,
  type Interpretation,
  type ListFilter,
  type Match,
} from './interpretation.ts';
import { SEARCH_KINDS, VOCABULARY_FIELDS } from './kinds.ts';
import { fold } from './normalise.ts';
import type { Range } from './numbers/ranges.ts';
import type { ParseContext } from './parser.ts';

const Strings = Type.Array(Type.String({ maxLength: 500 }), { maxItems: 200 });
const List = Type.Object({ include: Type.Optional(Strings), exclude: Type.Optional(Strings) });
const Bound = Type.Union([Type.Number(), Type.Null()]);
const RangeAnswer = Type.Union([
  Type.Object({ min: Type.Optional(Bound), max: Type.Optional(Bound) }),
  Type.Null(),
]);

const LIST_NAMES = [...VOCABULARY_FIELDS, 'statuses', 'types', 'text'] as const;
type ListName = (typeof LIST_NAMES)[number];
const listProperties = Object.fromEntries(LIST_NAMES.map((f) => [f, Type.Optional(List)])) as Record<
  ListName,
  TOptional<typeof List>
>;

/** What a model must answer (unknown keys are tolerated and ignored). */
const Answer = Type.Object({
  filters: Type.Object({
    ...listProperties,
    year: Type.Optional(RangeAnswer),
    bpm: Type.Optional(RangeAnswer),
  }),
  matches: Type.Optional(
    Type.Array(
      Type.Object({
        filter: Type.String(),
        value: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        negated: Type.Optional(Type.Boolean()),
        words: Type.Optional(Strings),
      }),
      { maxItems: 200 },
    ),
  ),
});
type Answer = Static<typeof Answer>;
type ListAnswer = Static<typeof List>;

const LIMITS = { year: { min: 1900, max: 2100 }, bpm: { min: 1, max: 999 } };

/** A model's range, or undefined when it is not one (out of bounds, reversed). */
function rangeOf(
  answer: Static<typeof RangeAnswer> | undefined,
  field: 'year' | 'bpm',
): Range | null | undefined {
  if (!answer || (answer.min == null && answer.max == null)) return null;
  const limits = LIMITS[field];
  const bound = (v: number | null | undefined) => (v == null ? null : Math.round(v));
  const range = { min: bound(answer.min), max: bound(answer.max) };
  const outside = [range.min, range.max].some((v) => v !== null && (v < limits.min || v > limits.max));
  if (outside || (range.min !== null && range.max !== null && range.min > range.max)) return undefined;
  return range;
}

/** How one list of the answer is checked: the value as the service spells it, or undefined to drop it. */
type Lookup = {
  field: ListName;
  list: ListFilter;
  canonical: (value: string) => string | undefined;
  unknown: string;
};

function lookupsOf(context: ParseContext, filters: Filters): Lookup[] {
  const queryWords = new Set(context.query.split(/[^\p{L}\p{N}]+/u).map(fold));
  const vocabularies = SEARCH_KINDS[context.kind].fields.map((field): Lookup => {
    const byFold = new Map((context.vocabulary[field] ?? []).map((v) => [fold(v), v]));
    return {
      field,
      list: filters[field]!,
      canonical: (v) => byFold.get(fold(v.trim())),
      unknown: `not in the ${field} vocabulary`,
    };
  });
  return [
    ...vocabularies,
    {
      field: 'statuses',
      list: filters.statuses,
      canonical: (v) => context.statuses.find((s) => fold(s.id) === fold(v) || fold(s.name) === fold(v))?.id,
      unknown: 'not a status of the board',
    },
    ...(filters.types
      ? [
          {
            field: 'types' as const,
            list: filters.types,
            canonical: (v: string) => ALBUM_TYPES.find((type) => type === fold(v.trim())),
            unknown: `not a release type (${ALBUM_TYPES.join(', ')})`,
          },
        ]
      : []),
    {
      field: 'text',
      list: filters.text,
      canonical: (v) =>
        v.split(/[^\p{L}\p{N}]+/u).every((w) => !w || queryWords.has(fold(w))) ? v : undefined,
      unknown: 'not words of the query',
    },
  ];
}

/**
 * Turns a model's answer into an interpretation: values are kept only when the vocabulary (or the
 * statuses) holds them, respelled as there; free-text words only when the query holds them. Answers
 * of the wrong shape or with impossible ranges are refused (null), so the parser answers instead.
 */
export function interpretAnswer(raw: unknown, context: ParseContext): Interpretation | null {
  if (!Value.Check(Answer, raw)) return null;
  const answer: Answer = raw;
  const year = rangeOf(answer.filters.year, 'year');
  const bpm = SEARCH_KINDS[context.kind].tempo ? rangeOf(answer.filters.bpm, 'bpm') : null;
  if (year === undefined || bpm === undefined) return null;

  const filters = { ...emptyFilters(context.kind), year, bpm };
  const ignored: Ignored[] = [];
  const lookups = lookupsOf(context, filters);
  for (const { field, list, canonical, unknown } of lookups) {
    const given: ListAnswer | undefined = answer.filters[field];
    for (const negated of [false, true]) {
      for (const value of (negated ? given?.exclude : given?.include) ?? []) {
        const kept = canonical(value);
        if (kept !== undefined) addValue(list, kept, negated);
        else ignored.push({ words: [value], reason: `the language model named it, but it is ${unknown}` });
      }
    }
  }
  return { filters, matches: matchesOf(answer, filters, lookups, context.query), ignored };
}

/** One match per kept value, with the words the model gave for it that the query really holds. */
function matchesOf(answer: Answer, filters: Filters, lookups: Lookup[], query: string): Match[] {
  const inQuery = (w: string) => fold(query).includes(fold(w));
  const given = answer.matches ?? [];
  const wordsFor = (field: FilterName, isIt: (value: string | null | undefined) => boolean) => [
    ...new Set(
      given
        .filter((m) => m.filter === field && isIt(m.value))
        .flatMap((m) => m.words ?? [])
        .filter(inQuery),
    ),
  ];
  const matches: Match[] = [];
  for (const { field, list, canonical } of lookups) {
    for (const negated of [false, true]) {
      for (const value of negated ? list.exclude : list.include) {
        const words = wordsFor(field, (v) => !!v && canonical(v) === value);
        matches.push({ filter: field, value, negated, words, how: 'llm' });
      }
    }
  }
  for (const field of ['year', 'bpm'] as const) {
    const range = filters[field];
    if (range)
      matches.push({ filter: field, range, negated: false, words: wordsFor(field, () => true), how: 'llm' });
  }
  return matches;
}
