import type { RouteOptions } from 'fastify';
import { errorResponse } from '../../shared/schemas.ts';
import { MAX_KEY_LENGTH } from '../idempotency/request-fingerprint.ts';

type Json = Record<string, unknown>;
type Operation = { parameters?: { in: string }[]; responses?: Json } & Json;

const ERROR_SCHEMA = { $ref: '#/components/schemas/ErrorResponse' };
const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const RETRY_AFTER = integerHeader('Seconds to wait before trying again');

/**
 * The error answers any operation may give, each documented once under `components.responses`: `description`
 * is what the route schemas carry (and what identifies them in the document), `status` their code.
 */
const GENERIC = {
  BadRequest: {
    status: 400,
    description: `Invalid request (validation_failed, invalid_json, bad_url); on a POST also an Idempotency-Key that is not 1 to ${MAX_KEY_LENGTH} printable ASCII characters`,
  },
  Unauthorized: {
    status: 401,
    description: 'Missing or invalid bearer token: exactly {"error":"Unauthorized"}, with WWW-Authenticate',
  },
  Forbidden: { status: 403, description: 'session_required, insufficient_scope or forbidden' },
  NotFound: { status: 404, description: 'Not found, or owned by a team the caller does not belong to' },
  MethodNotAllowed: {
    status: 405,
    description:
      'The path exists but does not answer this method (method_not_allowed); `Allow` lists those it does',
    headers: { Allow: { description: 'The methods the path answers', schema: { type: 'string' } } },
  },
  RequestTimeout: { status: 408, description: 'The request took too long to arrive (request_timeout)' },
  PayloadTooLarge: { status: 413, description: 'The body is over the size limit (payload_too_large)' },
  UriTooLong: { status: 414, description: 'A path segment is over 256 characters (uri_too_long)' },
  UnsupportedMediaType: {
    status: 415,
    description:
      'Not UTF-8 JSON sent as it is: another content type, charset or content coding (unsupported_media_type)',
  },
  TooManyRequests: {
    status: 429,
    description: 'Rate limited (rate_limited), with Retry-After',
    headers: {
      'Retry-After': RETRY_AFTER,
      RateLimit: { description: 'The remaining budget of the window', schema: { type: 'string' } },
      'RateLimit-Policy': { description: 'The limit and its window', schema: { type: 'string' } },
    },
  },
  HeadersTooLarge: {
    status: 431,
    description: 'The request line or headers are over 16 KB (headers_too_large)',
  },
  InternalError: { status: 500, description: 'Unexpected failure (internal_error, with requestId)' },
  Unavailable: {
    status: 503,
    description: 'The database is unavailable (unavailable), with Retry-After',
    headers: { 'Retry-After': RETRY_AFTER },
  },
} as const;

type GenericName = keyof typeof GENERIC;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The generic error answers a route's schema declares, by its auth class and whether it may get a body. */
export function genericErrorResponses(route: RouteOptions): Record<number, ReturnType<typeof errorResponse>> {
  const names: GenericName[] = ['BadRequest', 'InternalError', 'Unavailable'];
  // A body sent where none is taken is refused the same way: by its size, then by its type.
  const methods = [route.method].flat();
  if (route.schema?.body || methods.some((m) => BODY_METHODS.has(m)))
    names.push('PayloadTooLarge', 'UnsupportedMediaType');
  const cls = route.config?.auth;
  if (cls && cls.kind !== 'anonymous') names.push('Unauthorized', 'Forbidden', 'NotFound', 'TooManyRequests');
  return Object.fromEntries(
    names.map((name) => [GENERIC[name].status, errorResponse(GENERIC[name].description)]),
  );
}

/** `components.responses`: every generic error answer, once. */
export function errorResponseComponents(): Json {
  return Object.fromEntries(
    Object.entries(GENERIC).map(([name, { description, ...rest }]) => [
      name,
      {
        description,
        ...('headers' in rest ? { headers: rest.headers } : {}),
        content: { 'application/json': { schema: ERROR_SCHEMA } },
      },
    ]),
  );
}

const BY_DESCRIPTION = new Map(
  Object.entries(GENERIC).map(([name, g]) => [`${g.status} ${g.description}`, name]),
);

/**
 * Points each operation's generic error answers at their component, and adds those the HTTP layer gives
 * any request before a route runs: 405, 408 and 431 always, 414 where the path has parameters.
 */
export function referenceErrorResponses(operation: Operation): Operation {
  const responses: Json = {};
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const name = BY_DESCRIPTION.get(`${status} ${(response as Json).description}`);
    responses[status] = name ? { $ref: `#/components/responses/${name}` } : response;
  }
  const added: GenericName[] = ['MethodNotAllowed', 'RequestTimeout', 'HeadersTooLarge'];
  if (operation.parameters?.some((p) => p.in === 'path')) added.push('UriTooLong');
  for (const name of added) responses[GENERIC[name].status] ??= { $ref: `#/components/responses/${name}` };
  return { ...operation, responses: sortedByStatus(responses) };
}

function sortedByStatus(responses: Json): Json {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
