import { type AnyColumn, and, inArray, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Filters, ListFilter } from './interpretation.ts';
import type { VocabularyField } from './kinds.ts';
import { type SynonymField, synonymsOf } from './lexicon.ts';
import type { Range } from './numbers/ranges.ts';

/** The columns a kind's filters apply to. */
export type FilterColumns = {
  lists: Partial<Record<Exclude<VocabularyField, 'tags'>, AnyColumn>>;
  tags: AnyColumn;
  statusId: AnyColumn;
  /** Release type, for kinds that have one. */
  type?: AnyColumn;
  releaseDate: AnyColumn;
  bpm?: AnyColumn;
  /** Free text is looked for in these (title, artist). */
  text: AnyColumn[];
};

/** Folded, without spaces and punctuation: "Hip-Hop", "hip hop" and "HIPHOP" compare equal. Same on both sides. */
const keyOf = (value: SQL | AnyColumn | string) =>
  sql`regexp_replace(tmw_fold(${value}), '[[:space:][:punct:]]+', '', 'g')`;

const SYNONYM_FIELDS = new Set<string>(['languages', 'genres', 'tags']);

/** A value and the other ways its synonym group writes it, so data spelled differently still matches. */
function spellings(field: VocabularyField, value: string): SQL[] {
  const all = SYNONYM_FIELDS.has(field) ? [value, ...synonymsOf(field as SynonymField, value)] : [value];
  return [...new Set(all)].map((s) => keyOf(s));
}

function scalarIs(field: VocabularyField, column: AnyColumn, value: string): SQL {
  const keys = spellings(field, value);
  const whole = sql`${keyOf(column)} in (${sql.join(keys, sql`, `)})`;
  // A language filter "es" also takes regional tags ("es-MX").
  if (field !== 'languages') return whole;
  return or(whole, sql`${keyOf(sql`split_part(${column}, '-', 1)`)} in (${sql.join(keys, sql`, `)})`)!;
}

function scalarList(field: VocabularyField, column: AnyColumn, list: ListFilter): SQL[] {
  const conditions: SQL[] = [];
  if (list.include.length > 0) conditions.push(or(...list.include.map((v) => scalarIs(field, column, v)))!);
  if (list.exclude.length > 0)
    conditions.push(sql`not coalesce(${or(...list.exclude.map((v) => scalarIs(field, column, v)))}, false)`);
  return conditions;
}

function hasTag(column: AnyColumn, value: string): SQL {
  return sql`exists (select 1 from unnest(${column}) as tag(name) where ${keyOf(sql`tag.name`)} in (${sql.join(spellings('tags', value), sql`, `)}))`;
}

/** Values compared as they are: status ids, release types. */
function idList(column: AnyColumn, list: ListFilter): SQL[] {
  return [
    ...(list.include.length > 0 ? [inArray(column, list.include)] : []),
    ...(list.exclude.length > 0 ? [notInArray(column, list.exclude)] : []),
  ];
}

/** Bounds on `value` (inclusive); a row without a value is out whenever a range is asked for. */
function rangeOn(
  value: SQL,
  range: Range | null | undefined,
  lower: (n: number) => SQL,
  upper: (n: number) => SQL,
): SQL[] {
  if (!range) return [];
  return [
    sql`${value} is not null`,
    ...(range.min === null ? [] : [sql`${value} >= ${lower(range.min)}`]),
    ...(range.max === null ? [] : [sql`${value} <= ${upper(range.max)}`]),
  ];
}

function textOf(columns: AnyColumn[]): SQL {
  return sql`tmw_fold(${sql.join(
    columns.map((c) => sql`coalesce(${c}, '')`),
    sql` || ' ' || `,
  )})`;
}

/** The WHERE conditions that make rows satisfy `filters`. */
export function filterConditions(filters: Filters, columns: FilterColumns): SQL | undefined {
  const conditions: SQL[] = [];
  for (const [field, column] of Object.entries(columns.lists) as [VocabularyField, AnyColumn][]) {
    const list = filters[field];
    if (list) conditions.push(...scalarList(field, column, list));
  }
  const tags = filters.tags;
  if (tags) {
    conditions.push(...tags.include.map((t) => hasTag(columns.tags, t)));
    conditions.push(...tags.exclude.map((t) => sql`not ${hasTag(columns.tags, t)}`));
  }
  conditions.push(...idList(columns.statusId, filters.statuses));
  if (columns.type && filters.types) conditions.push(...idList(columns.type, filters.types));
  conditions.push(
    ...rangeOn(
      sql`${columns.releaseDate}`,
      filters.year,
      (y) => sql`make_date(${y}::int, 1, 1)`,
      (y) => sql`make_date(${y}::int, 12, 31)`,
    ),
  );
  if (columns.bpm) {
    // Whole BPM, as the filters speak: "120 bpm" takes 119.6 and 120.4.
    const bound = (n: number) => sql`${n}::numeric`;
    conditions.push(...rangeOn(sql`round(${columns.bpm})`, filters.bpm, bound, bound));
  }
  const text = textOf(columns.text);
  for (const word of filters.text.include) conditions.push(sql`strpos(${text}, tmw_fold(${word})) > 0`);
  for (const word of filters.text.exclude) conditions.push(sql`strpos(${text}, tmw_fold(${word})) = 0`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}
