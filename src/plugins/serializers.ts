import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { onFirstUse } from './compile-on-first-use.ts';
import { serializableSchema } from './serializable-schema.ts';

type BuildSerializer = ReturnType<typeof SerializerSelector>;
type Serialize = (data: unknown) => string;

const buildDefault = SerializerSelector();
/** Serializers per response schema object, and per set of shared schemas they may reference. */
const compiled = new WeakMap<object, Map<string, Serialize>>();

/**
 * Fastify's own response serializers (fast-json-stringify), compiled once per schema for the process, on
 * their first use (`onFirstUse`): route schemas are module constants, so every app built in one process
 * (tests build one per file) reuses what the first compiled. They are compiled from `serializableSchema`.
 */
const buildSerializer: BuildSerializer = (externalSchemas, options) => {
  const compile = buildDefault(externalSchemas && serializableSchema(externalSchemas), options);
  const shared = JSON.stringify(Object.keys(externalSchemas ?? {}).sort()) + JSON.stringify(options ?? {});
  return (route) => {
    const schema = route.schema as object;
    let bySchema = compiled.get(schema);
    if (!bySchema) {
      bySchema = new Map();
      compiled.set(schema, bySchema);
    }
    let serialize = bySchema.get(shared);
    if (!serialize) {
      const compiledSerialize = onFirstUse(
        () => compile({ ...route, schema: serializableSchema(route.schema) }) as Serialize,
      );
      serialize = (data) => compiledSerialize()(data);
      bySchema.set(shared, serialize);
    }
    return serialize;
  };
};

/** The `schemaController` option of Fastify that installs the cached serializers. */
export const cachedSerializers = { compilersFactory: { buildSerializer } };
