type Schema = Record<string | symbol, unknown>;

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'example', 'examples']);
/** Keywords that make a branch more than one primitive or object type. */
const COMBINING_KEYWORDS = ['anyOf', 'oneOf', 'allOf', '$ref', 'const', 'enum', 'not', 'if'];

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isNullSchema = (schema: unknown) =>
  isSchema(schema) && schema.type === 'null' && Object.keys(schema).length === 1;

const isSingleType = (schema: unknown): schema is Schema =>
  isSchema(schema) &&
  typeof schema.type === 'string' &&
  schema.type !== 'null' &&
  COMBINING_KEYWORDS.every((keyword) => !(keyword in schema));

/** The schema's own keywords beside its `anyOf`. */
const withoutAnyOf = ({ anyOf: _, ...siblings }: Schema): Schema => siblings;

const isStringLiteral = (schema: unknown) =>
  isSchema(schema) && schema.type === 'string' && typeof schema.const === 'string';

/** `anyOf` of string literals (an enumeration), maybe with null, as one string type (or string or null). */
function asEnumeration(copy: Schema, branches: unknown[]): Schema | undefined {
  const literals = branches.filter(isStringLiteral);
  const nulls = branches.filter(isNullSchema).length;
  if (literals.length === 0 || literals.length + nulls !== branches.length || nulls > 1) return undefined;
  return { ...withoutAnyOf(copy), type: nulls ? ['string', 'null'] : 'string' };
}

/**
 * The schema a response serializer is compiled from, with every `anyOf: [T, null]` of a single type T
 * written as T with `type: [T's type, 'null']`, and every `anyOf` of string literals (maybe with null)
 * as a string (or null). The serializer chooses a branch of `anyOf` by running the validator of each
 * branch on the value (a format's pattern, for a nullable UUID), field by field and row by row; of a list
 * of types, by `typeof`. Both write the same JSON for the values the schema allows. The document keeps
 * `anyOf`.
 */
export function serializableSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(serializableSchema) as T;
  if (!isSchema(schema)) return schema;
  const copy: Schema = {};
  for (const key of Reflect.ownKeys(schema)) {
    const value = schema[key];
    copy[key] = typeof key === 'string' && DATA_KEYWORDS.has(key) ? value : serializableSchema(value);
  }
  const branches = copy.anyOf;
  if (!Array.isArray(branches)) return copy as T;
  const enumeration = asEnumeration(copy, branches);
  if (enumeration) return enumeration as T;
  if (branches.length !== 2) return copy as T;
  const single = branches.find(isSingleType);
  if (!single || !branches.some(isNullSchema)) return copy as T;
  return { ...single, ...withoutAnyOf(copy), type: [single.type, 'null'] } as T;
}
