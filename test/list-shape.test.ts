import { describe, expect, it } from 'vitest';
import { useTestContext } from './helpers/context.ts';

const ctx = useTestContext();

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

/** The top-level properties an answer's schema names (through `$ref` and compositions). */
function propertiesOf(doc: Document, schema: Schema | undefined, seen = new Set<Schema>()): Set<string> {
  const names = new Set<string>();
  if (!schema || seen.has(schema)) return names;
  seen.add(schema);
  const resolved = schema.$ref ? doc.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;
  if (!resolved) return names;
  for (const name of Object.keys(resolved.properties ?? {})) names.add(name);
  for (const part of [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])])
    for (const name of propertiesOf(doc, part, seen)) names.add(name);
  return names;
}

/** Every GET of the route table with the query parameters and answer properties the document gives it. */
async function lists() {
  const doc: Document = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  return ctx.app.routeTable
    .filter((route) => route.method === 'GET')
    .map((route) => {
      const operation = doc.paths[route.path]?.get;
      expect(operation, `${route.path} is documented`).toBeDefined();
      const answer = operation!.responses?.['200']?.content?.['application/json']?.schema;
      const query = new Map(
        (operation!.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p] as const),
      );
      return { route: `GET ${route.path}`, query, answer: propertiesOf(doc, answer) };
    });
}

describe('every list has one shape', () => {
  it('takes cursor and limit wherever it answers nextCursor', async () => {
    const all = await lists();
    const paged = all.filter((list) => list.answer.has('nextCursor'));
    expect(paged.length).toBeGreaterThan(60);
    const missing = paged
      .filter((list) => !list.query.has('cursor') || !list.query.has('limit'))
      .map((list) => list.route);
    expect(missing).toEqual([]);
    for (const list of paged) {
      expect(list.query.get('cursor')?.required ?? false, list.route).toBe(false);
      expect(list.answer.has('items'), list.route).toBe(true);
    }
  });

  it('answers total wherever it takes count, and only there', async () => {
    const all = await lists();
    const counted = all.filter((list) => list.query.has('count'));
    for (const list of counted) {
      expect(list.answer.has('total'), list.route).toBe(true);
      expect(list.answer.has('nextCursor'), list.route).toBe(true);
    }
    expect(counted.map((list) => list.route)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/tracks',
        'GET /api/v1/albums',
        'GET /api/v1/contacts',
        'GET /api/v1/sessions',
        'GET /api/v1/financials',
        'GET /api/v1/inbox',
        'GET /api/v1/user/notifications',
        'GET /api/v1/user/notification-feed',
        'GET /api/v1/teams/{id}/members',
        'GET /api/v1/organisations/{id}/members',
        'GET /api/v1/tracks/{id}/versions/{versionId}/todos',
        'GET /api/v1/chat/bots/{botId}/follow-ups',
        'GET /api/v1/organisations/{id}/follow-ups',
      ]),
    );
  });
});
