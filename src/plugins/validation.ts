import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../shared/errors.ts';
import { onFirstUse } from './compile-on-first-use.ts';
import { withDecimalMultiples } from './decimal-multiples.ts';
import { quickLengthLimits, scanWithinMaxLength } from './length-guard.ts';
import { hooksOf } from './route-hooks.ts';
import { unstorableIn, withDatabaseDates } from './storable-input.ts';

type JsonSchema = Record<string, unknown>;

const options: Options = {
  allErrors: true,
  useDefaults: true,
  removeAdditional: false,
  strict: false,
  coerceTypes: false,
};

/**
 * The Ajv that validates requests. Nothing is coerced: bodies are JSON and must already have the right types;
 * query strings and path parameters are converted by textToTypes (Ajv's own coercion takes "0x25", " 37" and
 * "1e3" for numbers). Every problem is reported (`allErrors`), but patterns and formats only run on strings
 * within their `maxLength`, and lengths are counted only when the string's size cannot tell. `multipleOf` is
 * decided on exact decimals.
 */
export function createRequestAjv(): Ajv {
  return withDecimalMultiples(
    withDatabaseDates(quickLengthLimits(scanWithinMaxLength(addFormats.default(new Ajv(options))))),
  );
}

const bodyAjv = createRequestAjv();
const textAjv = createRequestAjv();

/**
 * Runs the validator `validator` compiles (on first use) on what `prepare` makes of the data, after refusing
 * what no column can store.
 */
function checked(validator: () => Validate, prepare: (data: unknown) => unknown = (data) => data): Validate {
  const run = ((data: unknown) => {
    const problem = unstorableIn(data);
    if (problem) {
      run.errors = [problem] as Validate['errors'];
      return false;
    }
    const validate = validator();
    const valid = validate(prepare(data));
    run.errors = validate.errors;
    return valid;
  }) as Validate;
  return run;
}

const DECIMAL = { integer: /^-?(0|[1-9]\d*)$/, number: /^-?(0|[1-9]\d*)(\.\d+)?$/ } as const;

/**
 * Numbers written plainly in decimal become numbers; anything else stays text, so the schema refuses it
 * ("must be integer"). Query strings and path parameters are flat: only top-level properties are read.
 */
function textToTypes(schema: JsonSchema): (data: unknown) => unknown {
  const numeric = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).filter(
    ([, property]) => property.type === 'integer' || property.type === 'number',
  ) as [string, JsonSchema & { type: keyof typeof DECIMAL }][];
  return (data) => {
    if (!data || typeof data !== 'object') return data;
    const record = data as Record<string, unknown>;
    for (const [name, property] of numeric) {
      const value = record[name];
      if (typeof value === 'string' && DECIMAL[property.type].test(value)) record[name] = Number(value);
    }
    return data;
  };
}

/**
 * Request schemas as validation reads them: unknown fields are refused everywhere (a typo must never be
 * silently ignored) unless a schema opts out, and integers stay within what JSON numbers hold exactly.
 */
export function hardened(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(hardened);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    out[key] =
      key === 'properties' || key === 'patternProperties' ? mapValues(value as JsonSchema) : hardened(value);
  }
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  if (out.type === 'integer') {
    out.maximum ??= Number.MAX_SAFE_INTEGER;
    out.minimum ??= Number.MIN_SAFE_INTEGER;
  }
  return out;
}

function mapValues(record: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, hardened(v)]));
}

type Validate = ReturnType<Ajv['compile']>;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const isEmptyBody = (body: unknown) =>
  body === undefined ||
  body === null ||
  body === '' ||
  (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);

async function refuseBody(request: FastifyRequest): Promise<void> {
  if (!isEmptyBody(request.body))
    throw errors.validation([{ path: '/body', message: 'must be empty: this endpoint takes no body' }]);
}

/**
 * A body of raw bytes (a file PUT to a signed upload URL, declared `format: binary`): the handler reads it as
 * a stream, so there is no JSON to check, and walking the stream object would report Node's internals.
 */
const isRawBytes = (schema: unknown) => (schema as JsonSchema | undefined)?.format === 'binary';

const acceptRawBytes: Validate = Object.assign(() => true, { errors: null }) as unknown as Validate;

// Route schemas are module constants: each app built in the process (tests build many) compiles them once.
const compiled = { body: new WeakMap<object, Validate>(), text: new WeakMap<object, Validate>() };

/** Compiles request schemas: strict types for bodies, plain decimal numbers for query and params, closed objects. */
export const validationPlugin = fp(
  async (app: FastifyInstance) => {
    app.setValidatorCompiler(({ schema, httpPart }) => {
      if (httpPart === 'body' && isRawBytes(schema)) return acceptRawBytes;
      const part = httpPart === 'body' ? 'body' : 'text';
      let validate = compiled[part].get(schema);
      if (!validate) {
        validate =
          part === 'body'
            ? checked(onFirstUse(() => bodyAjv.compile(hardened(schema) as JsonSchema)))
            : checked(
                onFirstUse(() => textAjv.compile(hardened(schema) as JsonSchema)),
                textToTypes(schema as JsonSchema),
              );
        compiled[part].set(schema, validate);
      }
      return validate;
    });

    // A route that declares no body takes none: a body sent anyway (e.g. `{"mode":"hard"}` on a DELETE whose
    // mode is a query parameter) is refused rather than silently ignored.
    app.addHook('onRoute', (route) => {
      const methods = ([] as string[]).concat(route.method);
      if (route.schema?.body || !methods.some((m) => BODY_METHODS.has(m))) return;
      route.preValidation = [refuseBody, ...hooksOf(route.preValidation)];
    });
  },
  { name: 'validation' },
);
