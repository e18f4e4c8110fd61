import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../shared/errors.ts';
import { hooksOf } from './route-hooks.ts';

/** What a page may change without leaving its list: where it starts, how long it is, whether it is counted. */
const PAGING_FIELDS = new Set(['cursor', 'offset', 'limit', 'count']);

type Cursored = { cursor?: unknown };

/** JSON with keys in a fixed order, so the same filters always read the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const withoutPaging = (input: unknown) =>
  input && typeof input === 'object' && !Array.isArray(input)
    ? Object.fromEntries(Object.entries(input).filter(([key]) => !PAGING_FIELDS.has(key)))
    : input;

/** The list a request reads: its route, path parameters, filters and body, paging left out. */
function listOf(request: FastifyRequest): string {
  const list = canonical([
    request.method,
    request.routeOptions.url,
    request.params,
    withoutPaging(request.query),
    withoutPaging(request.body),
  ]);
  return createHash('sha256').update(list).digest('base64url').slice(0, 10);
}

/** Where a request carries its cursor, if it does. */
function cursorPart(request: FastifyRequest): { holder: Cursored; path: string } | undefined {
  const query = request.query as Cursored | undefined;
  if (typeof query?.cursor === 'string') return { holder: query, path: '/query/cursor' };
  const body = request.body as Cursored | undefined;
  if (body && typeof body === 'object' && typeof body.cursor === 'string')
    return { holder: body, path: '/body/cursor' };
  return undefined;
}

async function unbindCursor(request: FastifyRequest): Promise<void> {
  const part = cursorPart(request);
  if (!part) return;
  const cursor = part.holder.cursor as string;
  const dot = cursor.lastIndexOf('.');
  const invalid = (message: string) => errors.validation([{ path: part.path, message }]);
  if (dot < 0) throw invalid('is not a cursor this endpoint issued');
  if (cursor.slice(dot + 1) !== listOf(request))
    throw invalid('belongs to another list: send the filters of the page it came from');
  part.holder.cursor = cursor.slice(0, dot);
}

async function bindCursor(request: FastifyRequest, _reply: FastifyReply, payload: unknown) {
  if (!payload || typeof payload !== 'object') return payload;
  const page = payload as { nextCursor?: unknown; results?: { nextCursor?: unknown } };
  const bind = (cursor: unknown) => (typeof cursor === 'string' ? `${cursor}.${listOf(request)}` : cursor);
  if (typeof page.nextCursor === 'string') return { ...page, nextCursor: bind(page.nextCursor) };
  if (page.results && typeof page.results.nextCursor === 'string')
    return { ...page, results: { ...page.results, nextCursor: bind(page.results.nextCursor) } };
  return payload;
}

const takesCursor = (schema: unknown) =>
  Boolean((schema as { properties?: Record<string, unknown> } | undefined)?.properties?.cursor);

/**
 * Ties every `nextCursor` to the list that issued it (route, path, filters): a cursor sent with other
 * filters or to another list is 400 instead of paging through something else. Routes keep their own
 * cursor formats; this adds `.<list fingerprint>` on the way out and checks and removes it on the way in,
 * on the routes that take a `cursor` (in the query or the body) only.
 */
export const cursorBindingPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!takesCursor(route.schema?.querystring) && !takesCursor(route.schema?.body)) return;
      route.preHandler = [unbindCursor, ...hooksOf(route.preHandler)];
      route.preSerialization = [bindCursor, ...hooksOf(route.preSerialization)];
    });
  },
  { name: 'cursor-binding' },
);
