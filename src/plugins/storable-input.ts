import type { Ajv, FormatDefinition } from 'ajv';
import { storableText } from '../shared/text.ts';

/** How deep request JSON may nest; no schema here goes past a handful of levels. */
const MAX_DEPTH = 32;

const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const END_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Dates and instants the database can store: RFC 3339 allows a year 0000 (PostgreSQL has none), a leap
 * second (JavaScript has none) and offsets that move 9999-12-31 into the year 10000.
 */
export function withDatabaseDates(ajv: Ajv): Ajv {
  for (const name of ['date', 'date-time']) {
    const base = ajv.formats[name] as {
      validate: (value: string) => boolean;
      compare: NonNullable<FormatDefinition<string>['compare']>;
    };
    ajv.addFormat(name, {
      type: 'string',
      validate: (value: string) => {
        if (!base.validate(value)) return false;
        const instant = Date.parse(name === 'date' ? `${value}T00:00:00Z` : value);
        return instant >= FIRST_INSTANT && instant <= END_INSTANT;
      },
      compare: base.compare,
    });
  }
  return ajv;
}

export type InputProblem = {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
};

const pointer = (path: string, key: string) => `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;

/**
 * The first part of request data no column can hold — text (a value or an object key) with a NUL character
 * or half a surrogate pair — or nesting deeper than any request needs, as a validation error. Walks without recursion.
 */
export function unstorableIn(data: unknown): InputProblem | undefined {
  const pending: [unknown, string, number][] = [[data, '', 0]];
  while (pending.length > 0) {
    const [value, path, depth] = pending.pop()!;
    if (typeof value === 'string') {
      if (!storableText(value))
        return {
          instancePath: path,
          keyword: 'text',
          message: 'must be text without NUL characters or unpaired surrogates',
          params: {},
        };
    } else if (value && typeof value === 'object') {
      if (depth >= MAX_DEPTH)
        return { instancePath: path, keyword: 'depth', message: 'is nested too deeply', params: {} };
      for (const [key, inner] of Object.entries(value)) {
        // Free-form objects (jsonb documents) keep their keys, which must be storable text too.
        if (!storableText(key))
          return {
            instancePath: path,
            keyword: 'text',
            message: 'has a key with a NUL character or an unpaired surrogate',
            params: {},
          };
        pending.push([inner, pointer(path, key), depth + 1]);
      }
    }
  }
  return undefined;
}
