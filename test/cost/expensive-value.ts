import type { JsonSchema } from '../fuzz/schema-arbitrary.ts';
import { adversarialTexts } from '../helpers/adversarial-text.ts';

const repeated = (piece: string) => (length: number) =>
  piece.repeat(Math.ceil(length / piece.length)).slice(0, length);

/**
 * Kinds of filler for free text of a given length, one per request sent to an operation: runs of
 * whitespace and newlines between repeated words and punctuation; a word, one long run of spaces and two
 * short lines (what the assistant's thread reads as a finished follow-up); punctuation alone.
 */
export const FILLERS: ((length: number) => string)[] = [
  repeated('done   \n\n  the follow-up... with @x, la-la-la!!  \t ;; '),
  (length) => (length < 12 ? repeated('a ')(length) : `done${' '.repeat(length - 8)}\nx\ny`),
  repeated('.,;:!?-_\'"()[]{}/\\*#@ '),
];

/** Ids of the data set up for the run, by the name of what they identify (`team`, `track`, `album`...). */
export type Ids = Record<string, number | string>;

/** The thing an id names: `teamId` and `teams/{id}` both name a team. */
export function idKind(name: string): string {
  return name.replace(/Ids?$/, '').replace(/ies$/, 'y').replace(/s$/, '').toLowerCase();
}

/**
 * The longest text up to `maxLength` that `pattern` accepts, among inputs built to make it backtrack (each
 * cut to `maxLength`, and shortened a little if the cut ends mid-piece).
 */
function longestMatching(pattern: string, minLength: number, maxLength: number): string | undefined {
  const accepts = new RegExp(pattern, 'u');
  let best: string | undefined;
  for (const { text } of adversarialTexts(pattern, maxLength)) {
    for (let cut = 0; cut < 10; cut++) {
      const candidate = text.slice(0, maxLength - cut);
      if (candidate.length <= (best?.length ?? -1) || candidate.length < minLength) break;
      if (accepts.test(candidate)) {
        best = candidate;
        break;
      }
    }
  }
  return best;
}

/** An optional reference to something the run did not make (a contact, an uploaded file) is left out. */
const unknownReference = (name: string, ids: Ids) =>
  /(Id|Ids|Key|Keys)$/.test(name) && !(idKind(name) in ids);

const FORMATS: Record<string, (variant: number) => string> = {
  date: () => '2026-06-01',
  'date-time': () => '2026-06-01T12:00:00.000Z',
  email: (variant) => `cost-${variant}@example.test`,
};

function stringValue(schema: JsonSchema, name: string, variant: number, ids: Ids): string {
  const format = schema.format ? FORMATS[schema.format] : undefined;
  if (format) return format(variant);
  if (schema.format === 'uuid') return String(ids.user);
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, 1000);
  if (schema.pattern) {
    try {
      const text = longestMatching(schema.pattern, minLength, maxLength);
      if (text !== undefined) return text;
    } catch {
      // A pattern the input builder does not read: the filler, which validation may refuse.
    }
  }
  const text = FILLERS[variant % FILLERS.length]!(maxLength);
  // Names that must differ from each other (tags, items of a set) are told apart by their start.
  return name.endsWith('#') ? `${name}${text}`.slice(0, maxLength) : text;
}

function numberValue(schema: JsonSchema, name: string, ids: Ids, integer: boolean): number {
  const id = ids[idKind(name)];
  if (integer && typeof id === 'number') return id;
  const step = (schema as { multipleOf?: number }).multipleOf ?? (integer ? 1 : 0.5);
  if (schema.maximum !== undefined) return schema.maximum;
  if (schema.exclusiveMaximum !== undefined) return schema.exclusiveMaximum - step;
  if (schema.minimum !== undefined) return Math.max(schema.minimum, 1);
  if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + step;
  return 1;
}

/**
 * A value of the schema as costly to take as it allows: strings at `maxLength` of the variant's filler (or
 * the longest text its pattern takes among backtracking inputs), arrays at `maxItems`, every optional
 * property present but references to what the run did not make, numbers at their maximum, ids of the run's
 * data where a property names one.
 */
export function expensiveValue(schema: JsonSchema, variant: number, ids: Ids, name = '', depth = 0): unknown {
  if (depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[variant % schema.enum.length];
  const choices = (schema.anyOf ?? schema.oneOf)?.filter((choice) => choice.type !== 'null');
  if (choices?.length)
    return expensiveValue(choices[variant % choices.length]!, variant, ids, name, depth + 1);
  if (schema.allOf?.length)
    return expensiveValue(Object.assign({}, ...schema.allOf), variant, ids, name, depth);
  const type = [schema.type ?? (schema.properties ? 'object' : 'string')].flat().find((t) => t !== 'null');
  switch (type) {
    case 'string':
      return stringValue(schema, name, variant, ids);
    case 'integer':
    case 'number':
      return numberValue(schema, name, ids, type === 'integer');
    case 'boolean':
      return true;
    case 'array': {
      const count = schema.maxItems ?? Math.max(schema.minItems ?? 0, 100);
      const unique = (schema as { uniqueItems?: boolean }).uniqueItems === true;
      return Array.from({ length: count }, (_, i) => {
        const item = expensiveValue(schema.items ?? {}, variant, ids, unique ? `${i}#` : name, depth + 1);
        return unique && typeof item === 'number' ? item + i : item;
      });
    }
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([key]) => schema.required?.includes(key) || !unknownReference(key, ids))
          .map(([key, value]) => [key, expensiveValue(value, variant, ids, key, depth + 1)]),
      );
    default:
      return null;
  }
}
