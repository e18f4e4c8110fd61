import fc from 'fast-check';

/** The part of JSON Schema the route schemas use. */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

const MAX_DEPTH = 6;
const SMALL_ARRAY = 4;
const SHORT_STRING = 24;

/** Values a careless or hostile client sends where anything else was expected. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    '',
    ' ',
    '\u0000',
    '\ud800',
    'x'.repeat(5000),
    '9'.repeat(40),
    '-1',
    '0x10',
    '1e309',
    '../../etc/passwd',
    "' or 1=1 --",
    '=HYPERLINK("x")',
    '2024-02-30T25:61:61Z',
    '0000-01-01',
    true,
    false,
    null,
    0,
    -1,
    2 ** 31,
    2 ** 53,
    -(2 ** 63),
    1.5,
    [],
    {},
    [[[[[[]]]]]],
    { __proto__: { polluted: true } },
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

function bounded(min: number | undefined, max: number | undefined, fallback: [number, number]) {
  const lo = Math.max(min ?? fallback[0], Number.MIN_SAFE_INTEGER);
  const hi = Math.min(max ?? fallback[1], Number.MAX_SAFE_INTEGER);
  return lo <= hi ? [lo, hi] : [lo, lo];
}

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? SHORT_STRING, SHORT_STRING));
  const fits = (s: string) =>
    s.length >= minLength && s.length <= (schema.maxLength ?? Number.MAX_SAFE_INTEGER);
  switch (schema.format) {
    case 'date-time':
      return fc
        .date({
          min: new Date('0000-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({
          min: new Date('0000-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'uuid':
      return fc.uuid();
    case 'uri':
      return fc.webUrl().filter(fits);
  }
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern, 'u'), { maxLength: Math.max(maxLength, minLength) })
        .filter(fits);
    } catch {
      // A pattern the generator cannot read: plain strings, which the server may refuse.
    }
  }
  return fc.string({ unit: 'grapheme', minLength, maxLength }).filter(fits);
}

/** Values that satisfy the schema (as far as a generator can tell without running the validator). */
export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.length) return fc.oneof(...choices.map((c) => validValue(c, depth + 1)));
  if (schema.allOf?.length) return validValue(Object.assign({}, ...schema.allOf), depth + 1);
  const types = [schema.type ?? (schema.properties ? 'object' : 'any')].flat();
  if (types.length > 1) return fc.oneof(...types.map((type) => validValue({ ...schema, type }, depth)));
  switch (types[0]) {
    case 'string':
      return stringValue(schema);
    case 'integer': {
      const [lo, hi] = bounded(
        schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : schema.minimum,
        schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : schema.maximum,
        [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
      );
      return fc.integer({ min: lo!, max: hi! });
    }
    case 'number': {
      const [lo, hi] = bounded(schema.minimum, schema.maximum, [-Number.MAX_VALUE, Number.MAX_VALUE]);
      return fc.double({ min: lo!, max: hi!, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? SMALL_ARRAY, SMALL_ARRAY));
      return fc.array(validValue(schema.items ?? {}, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, validValue(value, depth + 1)]),
      );
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * A value of the schema with one thing wrong, most of the time: a field replaced by a hostile value, a
 * required field dropped, an unknown field added, or the whole value replaced.
 */
export function mutatedValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const valid = validValue(schema);
  const keys = Object.keys(schema.properties ?? {});
  const mutations: fc.Arbitrary<unknown>[] = [valid, hostileValue];
  if (keys.length > 0) {
    const objects = valid.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
    mutations.push(
      fc
        .tuple(objects, fc.constantFrom(...keys), hostileValue)
        .map(([value, key, hostile]) => ({ ...value, [key]: hostile })),
      fc.tuple(objects, fc.constantFrom(...keys)).map(([value, key]) => {
        const { [key]: _dropped, ...rest } = value;
        return rest;
      }),
      fc.tuple(objects, hostileValue).map(([value, hostile]) => ({ ...value, unexpectedField: hostile })),
    );
  }
  return fc.oneof(...mutations);
}
