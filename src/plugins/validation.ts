import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

type JsonSchema = Record<string, unknown>;

const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

// Bodies are JSON and must already have the right types; query strings and path parameters arrive as text.
const bodyAjv = addFormats.default(new Ajv({ ...common, coerceTypes: false }));
const textAjv = addFormats.default(new Ajv({ ...common, coerceTypes: 'array' }));

/** Unknown fields are refused everywhere (a typo must never be silently ignored), unless a schema opts out. */
export function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    out[key] =
      key === 'properties' || key === 'patternProperties'
        ? mapValues(value as JsonSchema)
        : closeObjects(value);
  }
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

function mapValues(record: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, closeObjects(v)]));
}

type Validate = ReturnType<Ajv['compile']>;

// Route schemas are module constants: each app built in the process (tests build many) compiles them once.
const compiled = { body: new WeakMap<object, Validate>(), text: new WeakMap<object, Validate>() };

/** Compiles request schemas: strict types for bodies, coercion for query and params, closed objects for all. */
export const validationPlugin = fp(
  async (app: FastifyInstance) => {
    app.setValidatorCompiler(({ schema, httpPart }) => {
      const part = httpPart === 'body' ? 'body' : 'text';
      let validate = compiled[part].get(schema);
      if (!validate) {
        validate = (part === 'body' ? bodyAjv : textAjv).compile(closeObjects(schema) as JsonSchema);
        compiled[part].set(schema, validate);
      }
      return validate;
    });
  },
  { name: 'validation' },
);
