import { readdirSync, readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { Page } from '../../shared/schemas.ts';
import { hoistNamedSchemas } from './named-schemas.ts';

type Json = Record<string, unknown>;
type Operation = Json & {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Json[];
  requestBody?: { content: Record<string, Json> };
  responses: Record<string, Json>;
};
type Document = Json & {
  info: Json & { license: Json; contact?: Json };
  tags: { name: string; description: string }[];
  'x-tagGroups': { name: string; tags: string[] }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};

const ctx = useTestContext();
let document: Document;
let operations: Operation[];

beforeAll(async () => {
  document = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json() as Document;
  operations = Object.values(document.paths).flatMap((byMethod) => Object.values(byMethod));
});

const missing = (what: (op: Operation) => boolean) =>
  operations.filter((op) => !what(op)).map((op) => op.operationId);

describe('the API document', () => {
  it('describes every operation: a summary, a description and one declared tag', () => {
    expect(missing((op) => Boolean(op.summary))).toEqual([]);
    expect(missing((op) => Boolean(op.description))).toEqual([]);
    const declared = new Set(document.tags.map((t) => t.name));
    expect(missing((op) => op.tags?.length === 1 && declared.has(op.tags[0]!))).toEqual([]);
    // Every declared tag is used, described and in one group, in the order of the groups.
    const used = new Set(operations.map((op) => op.tags?.[0]));
    expect(document.tags.filter((t) => !used.has(t.name) || !t.description)).toEqual([]);
    expect(document['x-tagGroups'].flatMap((g) => g.tags)).toEqual(document.tags.map((t) => t.name));
  });

  it('shows an example of every parameter, request body and JSON answer', () => {
    const unexampled: string[] = [];
    for (const op of operations) {
      for (const p of op.parameters ?? [])
        if (p.example === undefined) unexampled.push(`${op.operationId} ${p.name}`);
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        if (type.includes('json') && !exampled(media)) unexampled.push(`${op.operationId} body`);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const json = (response.content as Record<string, Json> | undefined)?.['application/json'];
        if (status.startsWith('2') && json && !exampled(json)) unexampled.push(`${op.operationId} ${status}`);
      }
    }
    expect(unexampled).toEqual([]);
  });

  it('names resources, pages and bodies as components and refers to them', () => {
    const { schemas } = document.components;
    expect(schemas.TrackDetail).toMatchObject({ type: 'object', title: 'TrackDetail' });
    const one = document.paths['/api/v1/tracks/{id}']!.get!.responses['200']!;
    expect(one.content).toEqual({
      'application/json': expect.objectContaining({ schema: { $ref: '#/components/schemas/TrackDetail' } }),
    });
    const list = document.paths['/api/v1/tracks']!.get!.responses['200']!;
    expect(list.content).toEqual({
      'application/json': expect.objectContaining({
        schema: { $ref: '#/components/schemas/TrackSummaryPage' },
      }),
    });
    expect(schemas.TrackSummaryPage).toMatchObject({
      properties: { items: { type: 'array', items: { $ref: '#/components/schemas/TrackSummary' } } },
    });
  });

  it('says what validation refuses: unknown fields, integers beyond their bounds', () => {
    const create = document.paths['/api/v1/tracks']!.post!.requestBody!.content['application/json']!;
    const body = resolved(create.schema as Json);
    expect(body.additionalProperties).toBe(false);
    // A rule across fields, where JSON Schema can say it.
    expect(document.components.schemas.SessionParticipantInvite).toMatchObject({
      oneOf: [{ required: ['userId'] }, { required: ['email'] }],
    });
    const id = document.paths['/api/v1/tracks/{id}']!.get!.parameters!.find((p) => p.name === 'id')!;
    expect(id.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 2_147_483_647 });
  });

  it('documents the error answers every operation can give once, as shared responses', () => {
    const { responses } = document.components;
    for (const op of operations) {
      for (const status of ['400', '405', '408', '431', '500', '503']) {
        expect(op.responses[status], `${op.operationId} ${status}`).toBeDefined();
      }
    }
    expect(responses.MethodNotAllowed).toMatchObject({ headers: { Allow: expect.any(Object) } });
    expect(responses.TooManyRequests).toMatchObject({ headers: { 'Retry-After': expect.any(Object) } });
    const get = document.paths['/api/v1/tracks/{id}']!.get!;
    expect(get.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(get.responses['414']).toEqual({ $ref: '#/components/responses/UriTooLong' });
  });

  it('marks a precondition header required where the operation answers 428 without it', () => {
    const put = Object.values(document.paths).find(
      (byMethod) => byMethod.put?.operationId === 'sessions.canvas.put',
    )!.put!;
    expect(put.parameters!.find((p) => p.name === 'if-match')).toMatchObject({
      in: 'header',
      required: true,
    });
  });

  it('is written once and answered 304 to a client that has it', async () => {
    const first = await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const again = await ctx.request({
      method: 'GET',
      url: '/api/v1/openapi.json',
      headers: { 'if-none-match': etag },
    });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    const stale = await ctx.request({
      method: 'GET',
      url: '/api/v1/openapi.json',
      headers: { 'if-none-match': '"old"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);
    // The reference page reads the same document.
    const page = await ctx.request({ method: 'GET', url: '/docs/json' });
    expect([page.headers.etag, page.body]).toEqual([etag, first.body]);
  });

  it('states the licence of package.json and a contact', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(document.info.license.identifier).toBe(pkg.license);
    expect(document.info.contact).toMatchObject({ url: expect.stringMatching(/\/docs$/) });
  });
});

describe('named schemas', () => {
  const Item = Type.Object({ id: Type.Integer() }, { title: 'Item' });

  it('become one component, referred to wherever they are used, with a page of them named after them', () => {
    const doc = hoistNamedSchemas(
      { paths: { a: { schema: Page(Item) }, b: { schema: { ...Item, description: 'Here' } } } },
      ['paths'],
    );
    expect(doc.paths).toEqual({
      a: { schema: { $ref: '#/components/schemas/ItemPage' } },
      b: { schema: { $ref: '#/components/schemas/Item', description: 'Here' } },
    });
    expect(doc.components.schemas).toMatchObject({
      Item: { title: 'Item' },
      ItemPage: { properties: { items: { items: { $ref: '#/components/schemas/Item' } } } },
    });
  });

  it('refuse two different schemas under one name, such as a derived one that kept its source’s title', () => {
    const derived = Type.Partial(Item);
    expect(derived.title).toBe('Item');
    expect(() => hoistNamedSchemas({ paths: { a: Item, b: derived } }, ['paths'])).toThrow(/named Item/);
  });
});

describe('the named schemas of the modules', () => {
  it('each name one shape: a schema derived from a named one (Omit, Pick, Partial) is given its own name', async () => {
    const root = new URL('../../modules/', import.meta.url);
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) =>
      /(schemas|events)\.ts$/.test(file),
    );
    const shapes = new Map<string, Set<string>>();
    for (const file of files) {
      const exports = (await import(new URL(file, root).href)) as Record<string, unknown>;
      for (const value of Object.values(exports)) {
        const title = (value as Json | null)?.title;
        if (typeof title !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(title)) continue;
        const { description: _, ...shape } = value as Json;
        shapes.set(title, (shapes.get(title) ?? new Set()).add(JSON.stringify(shape)));
      }
    }
    expect(shapes.size).toBeGreaterThan(3);
    expect([...shapes].filter(([, found]) => found.size > 1).map(([name]) => name)).toEqual([]);
  });
});

const exampled = (media: Json) => media.example !== undefined || media.examples !== undefined;

function resolved(schema: Json): Json {
  const ref = schema.$ref as string | undefined;
  return ref ? document.components.schemas[ref.replace('#/components/schemas/', '')]! : schema;
}
