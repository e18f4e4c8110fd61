import randexp from 'randexp';

// The package is CommonJS exporting the class itself; its types declare it as an ES default export.
const RandExp = randexp as unknown as typeof randexp.default;

type Json = Record<string, unknown>;
type Document = Json & { paths?: Record<string, Record<string, Json>>; components?: { schemas?: Json } };

const DEPTH = 8;
const REF_PREFIX = '#/components/schemas/';

/** Values for fields whose name says what they hold, where the schema alone would give "string". */
const BY_NAME: Record<string, string> = {
  title: 'Night Drive',
  name: 'Luna Vale',
  displayName: 'Luna Vale',
  artist: 'Luna Vale',
  email: 'luna@example.com',
  password: 'correct horse battery staple',
  currency: 'EUR',
  country: 'DE',
  countryCode: 'DE',
  timezone: 'Europe/Berlin',
  timeZone: 'Europe/Berlin',
  genre: 'Synth-pop',
  key: 'F# minor',
  language: 'en',
  content: 'Love the new chorus!',
  body: 'Love the new chorus!',
  description: 'Second mix with the new vocal take',
  notes: 'Vocals up 1 dB in the bridge',
  city: 'Berlin',
  venue: 'Columbia Theater',
  slug: 'night-drives',
  emoji: '🔥',
};

const DATE_TIME = '2026-03-14T09:30:00.000Z';
const EXAMPLE_URL = 'https://example.com/night-drive';

const BY_FORMAT: Record<string, string> = {
  'date-time': DATE_TIME,
  date: '2026-03-14',
  time: '09:30:00',
  uuid: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
  email: 'luna@example.com',
  uri: EXAMPLE_URL,
  url: EXAMPLE_URL,
  hostname: 'example.com',
  ipv4: '192.0.2.10',
};

/**
 * A value for `schema` that a reader can take as real: the schema's own example where it gives one (its
 * component's, for a `$ref`), otherwise one built from its type, format, bounds and field names.
 */
export function sampleOf(
  schema: unknown,
  document: Document,
  field = '',
  depth = 0,
  request = false,
): unknown {
  if (!schema || typeof schema !== 'object' || depth > DEPTH) return undefined;
  const s = schema as Json;
  if (typeof s.$ref === 'string' && s.$ref.startsWith(REF_PREFIX)) {
    const target = document.components?.schemas?.[s.$ref.slice(REF_PREFIX.length)];
    return sampleOf(target, document, field, depth + 1, request);
  }
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('example' in s) return s.example;
  if ('const' in s) return s.const;
  if ('default' in s) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  const choices = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices)) {
    const chosen = choices.find((c) => (c as Json).type !== 'null') ?? choices[0];
    return sampleOf(chosen, document, field, depth + 1, request);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return objectSample(s, document, depth, request);
    case 'array': {
      const item = sampleOf(s.items, document, field, depth + 1, request);
      const count = Math.max(1, Number(s.minItems ?? 1));
      return item === undefined ? [] : Array.from({ length: count }, () => item);
    }
    case 'string':
      return stringSample(s, field);
    case 'integer':
      return numberSample(s, /Id$|^id$/.test(field) ? 7 : 3);
    case 'number':
      return numberSample(s, 12.5);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      // A schema that takes any value.
      return Object.keys(s).every((k) => k === 'description' || k === 'title') ? {} : undefined;
  }
}

function objectSample(s: Json, document: Document, depth: number, request: boolean): Json | undefined {
  const properties = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required ?? []) as string[]);
  const out: Json = {};
  for (const [name, property] of Object.entries(properties)) {
    // A request example shows what to send: what is needed and what is preferred, never an old alias.
    if (request && property.deprecated && !required.has(name)) continue;
    const value = sampleOf(property, document, name, depth + 1, request);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function stringSample(s: Json, field: string): string | undefined {
  if (s.format === 'binary') return undefined;
  const known = (typeof s.format === 'string' && BY_FORMAT[s.format]) || BY_NAME[field];
  let text = known || (/Url$|^url$/.test(field) ? EXAMPLE_URL : /At$/.test(field) ? DATE_TIME : 'example');
  // The pattern is one of the document's own (each checked for linear matching) and the text a short example.
  if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(text)) text = matching(s.pattern);
  const [min, max] = [Number(s.minLength ?? 0), Number(s.maxLength ?? Number.POSITIVE_INFINITY)];
  return text.length < min ? text.padEnd(min, 'x') : text.slice(0, max);
}

/** A text the pattern accepts, the same on every run (the generator draws from a fixed seed). */
function matching(pattern: string): string {
  let seed = 7;
  const generator = new RandExp(pattern);
  generator.max = 4;
  generator.randInt = (from: number, to: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return from + (seed % (to - from + 1));
  };
  return generator.gen();
}

function numberSample(s: Json, preferred: number): number {
  let value = preferred;
  if (typeof s.minimum === 'number') value = Math.max(value, s.minimum);
  if (typeof s.exclusiveMinimum === 'number') value = Math.max(value, s.exclusiveMinimum + 1);
  if (typeof s.maximum === 'number') value = Math.min(value, s.maximum);
  if (typeof s.exclusiveMaximum === 'number') value = Math.min(value, s.exclusiveMaximum - 1);
  if (typeof s.multipleOf === 'number' && s.multipleOf >= 1)
    value = Math.ceil(value / s.multipleOf) * s.multipleOf;
  return value;
}

/**
 * Gives every parameter, request body and JSON answer of the document an example, unless the route's
 * schema has one of its own.
 */
export function withExamples<T extends Document>(document: T): T {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.example !== undefined) continue;
        const value = sampleOf(parameter.schema, document, parameter.name as string, 0, true);
        if (value !== undefined) parameter.example = value;
      }
      const body = (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      for (const media of Object.values(body ?? {})) exemplify(media, document, true);
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
        if (!status.startsWith('2')) continue;
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
          exemplify(media, document, false);
        }
      }
    }
  }
  return document;
}

function exemplify(media: Json, document: Document, request: boolean): void {
  if (media.example !== undefined || media.examples !== undefined) return;
  const value = sampleOf(media.schema, document, '', 0, request);
  if (value !== undefined) media.example = value;
}
