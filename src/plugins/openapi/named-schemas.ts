type Json = Record<string, unknown>;

/** A schema's `title` that names a component: PascalCase, as generated clients name their types. */
const COMPONENT_NAME = /^[A-Z][A-Za-z0-9]*$/;

const REF_PREFIX = '#/components/schemas/';

/**
 * Moves every schema titled with a component name (`{title: 'Track', ...}`) into `components.schemas` and
 * puts a `$ref` where it was, innermost first, so a page of tracks refers to `Track` and generated clients
 * get real type names. A use site's own `description` stays beside its `$ref`. Two different schemas under
 * one name are a programming error and fail the document.
 */
export function hoistNamedSchemas<T extends Json & { components?: { schemas?: Json } }>(
  document: T,
  roots: readonly (keyof T)[],
): T & { components: { schemas: Json } } {
  const schemas: Json = { ...document.components?.schemas };
  const shapes = new Map<string, string>();

  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node as Json)) {
      // Examples are data: a `title` inside one is a field, not a schema's name.
      out[key] = key === 'example' || key === 'examples' ? value : visit(value);
    }
    const name = out.title;
    if (typeof name !== 'string' || !COMPONENT_NAME.test(name) || '$ref' in out) return out;
    const { description, ...shape } = out;
    // A body's or answer's own `examples` move to its media object: the same schema nested elsewhere keeps them.
    const { examples, ...compared } = shape;
    const text = JSON.stringify(compared);
    const known = shapes.get(name);
    if (known === undefined) {
      if (name in schemas) throw new Error(`Schema name ${name} is taken by another component`);
      shapes.set(name, text);
      schemas[name] = description === undefined ? shape : { ...shape, description };
    } else if (known !== text) {
      throw new Error(`Two different schemas are named ${name}: ${known} and ${text}`);
    } else if (examples !== undefined && (schemas[name] as Json).examples === undefined) {
      schemas[name] = { ...(schemas[name] as Json), examples };
    }
    const ref = { $ref: REF_PREFIX + name };
    const own = (schemas[name] as Json).description;
    return description === undefined || description === own ? ref : { ...ref, description };
  };

  const hoisted = { ...document };
  for (const root of roots)
    if (hoisted[root] !== undefined) hoisted[root] = visit(hoisted[root]) as T[keyof T];
  // Components given whole (the error, the webhook payloads) keep their own name; what they hold is named too.
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    if (schema && typeof schema === 'object') {
      schemas[name] = Object.fromEntries(
        Object.entries(schema as Json).map(([key, value]) => [
          key,
          key === 'examples' ? value : visit(value),
        ]),
      );
    }
  }
  return { ...hoisted, components: { ...document.components, schemas: sortedByName(schemas) } };
}

function sortedByName(schemas: Json): Json {
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}
