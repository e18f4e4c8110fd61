import fc from 'fast-check';
import { hostileValue, type JsonSchema, mutatedValue, validValue } from './schema-arbitrary.ts';

type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema };
type OpenApiOperation = {
  operationId: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: Record<string, Record<string, unknown>>;
};

/** One documented operation, ready to be fuzzed. */
export type Operation = {
  method: string;
  path: string;
  operationId: string;
  parameters: Parameter[];
  body?: { contentType: string; schema: JsonSchema };
  /** Whether the documented success answers are JSON. */
  answersJson: boolean;
  /** The statuses its document lists. */
  statuses: ReadonlySet<string>;
  /** Whether it needs a token (its document names a security scheme). */
  authenticated: boolean;
};

/** `value` with every `#/components/...` reference replaced by what it names (the document has no cycles). */
function dereferenced<T>(value: T, components: OpenApiDocument['components'], depth = 0): T {
  if (depth > 64) throw new Error('References nested too deep: a cycle?');
  if (Array.isArray(value)) return value.map((v) => dereferenced(v, components, depth + 1)) as T;
  if (!value || typeof value !== 'object') return value;
  const { $ref, ...rest } = value as Record<string, unknown>;
  const [, , kind, name] = typeof $ref === 'string' ? $ref.split('/') : [];
  const target = kind && name ? (components?.[kind]?.[name] as object) : undefined;
  const merged = { ...target, ...rest };
  return Object.fromEntries(
    Object.entries(merged).map(([k, v]) => [
      k,
      k === 'example' || k === 'examples' ? v : dereferenced(v, components, depth + 1),
    ]),
  ) as T;
}

/** Operations that end the caller's session or account: fuzzed last, so they do not cut the run short. */
const ENDING = /(^auth\.logout$|account\.delete|\.delete$|\.remove|\.leave|\.revoke)/;

/** Every documented operation, in a stable order: reads and writes first, then what deletes or ends things. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const paths = dereferenced(document.paths, document.components);
  const operations = Object.entries(paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => {
      const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const successes = Object.entries(op.responses).filter(([code]) => code.startsWith('2'));
      return {
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        parameters: op.parameters ?? [],
        ...(contentType && media ? { body: { contentType, schema: media.schema } } : {}),
        answersJson: successes.some(([, r]) => Object.keys(r.content ?? {}).some((c) => c.includes('json'))),
        statuses: new Set(Object.keys(op.responses)),
        authenticated: (op.security ?? []).length > 0,
      };
    }),
  );
  const ends = (op: Operation) => ENDING.test(op.operationId) || op.method === 'DELETE';
  // An event stream stays open until its client leaves, so an injected request would never end; such
  // operations have their own tests over a listening server.
  const streams = (op: Operation) =>
    Object.values(paths[op.path]?.[op.method.toLowerCase()]?.responses ?? {}).some(
      (r) => r.content?.['text/event-stream'] !== undefined,
    );
  return operations
    .filter((op) => !streams(op))
    .sort((a, b) => Number(ends(a)) - Number(ends(b)) || a.operationId.localeCompare(b.operationId));
}

/** Ids worth trying in paths: those of the data set up for the run, small ones, and hostile ones. */
export type IdPools = { integers: number[]; uuids: string[] };

const HOSTILE_SEGMENTS = [
  '0',
  '-1',
  '2147483648',
  '99999999999999999999',
  'abc',
  '1.5',
  '%00',
  '%E0%A4%A',
  '..',
];

function pathValue(parameter: Parameter, pools: IdPools): fc.Arbitrary<string> {
  const known =
    parameter.schema.type === 'integer'
      ? fc.constantFrom(...pools.integers).map(String)
      : parameter.schema.format === 'uuid'
        ? fc.constantFrom(...pools.uuids)
        : validValue(parameter.schema).map(String);
  return fc.oneof(
    { arbitrary: known.map(encodeURIComponent), weight: 16 },
    { arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS), weight: 1 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent), weight: 1 },
  );
}

const hostileText = hostileValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')));

/** Mostly nothing, now and then something: for what is refused whenever it is sent. */
function rarely<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary, weight: 1 });
}

function queryValue(parameter: Parameter): fc.Arbitrary<string | undefined> {
  // A made-up cursor is always refused: sent now and then, to see it refused cleanly.
  if (parameter.name === 'cursor') return rarely(hostileText);
  return fc.oneof(
    { arbitrary: validValue(parameter.schema).map(String), weight: 4 },
    {
      arbitrary: hostileValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
      weight: 1,
    },
  );
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
];

export type FuzzRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
};

/** Requests for one operation: mostly well-formed, with mutated parameters, bodies and content types. */
export function requestsFor(operation: Operation, pools: IdPools): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const path = fc.record(Object.fromEntries(pathParameters.map((p) => [p.name, pathValue(p, pools)])));
  const query = fc
    .record(Object.fromEntries(queryParameters.map((p) => [p.name, queryValue(p)])), {
      requiredKeys: queryParameters.filter((p) => p.required).map((p) => p.name),
    })
    .map(
      (q) =>
        Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string>,
    );
  const body = operation.body
    ? fc.oneof(
        { arbitrary: validValue(operation.body.schema).map((v) => ({ value: v, raw: false })), weight: 3 },
        { arbitrary: mutatedValue(operation.body.schema).map((v) => ({ value: v, raw: false })), weight: 3 },
        {
          arbitrary: fc
            .constantFrom('{"a":', '[', 'null', '"', '\u0000')
            .map((v) => ({ value: v, raw: true })),
          weight: 1,
        },
      )
    : fc.option(
        hostileValue.map((v) => ({ value: v, raw: false })),
        { freq: 8 },
      );
  const contentType = fc.oneof(
    { arbitrary: fc.constant(operation.body?.contentType ?? 'application/json'), weight: 8 },
    { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 1 },
  );
  return fc.record({ path, query, body, contentType }).map(({ path, query, body, contentType }) => {
    const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => path[name] ?? '1');
    const search = new URLSearchParams(query).toString();
    const request: FuzzRequest = {
      method: operation.method,
      url: search ? `${url}?${search}` : url,
      headers: {},
    };
    if (body) {
      request.headers['content-type'] = contentType;
      request.payload = body.raw
        ? String(body.value)
        : operation.body?.contentType === 'application/octet-stream'
          ? Buffer.from(JSON.stringify(body.value) ?? '')
          : (JSON.stringify(body.value) ?? '');
    }
    return request;
  });
}
