import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../shared/errors.ts';
import type { Principal } from '../auth.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const MAX_KEY_LENGTH = 255;
/** 1..255 printable ASCII characters (space to tilde). */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** The `Idempotency-Key` of a request: 400 `validation_failed` when it is not 1..255 printable ASCII characters. */
export function idempotencyKeyOf(header: string | string[]): string {
  if (typeof header === 'string' && VALID_KEY.test(header)) return header;
  throw errors.validation([
    {
      path: `/headers/${IDEMPOTENCY_HEADER}`,
      message: `must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters`,
    },
  ]);
}

/** Whose keys these are: a user's keys are shared by all their sessions, an API key has its own. */
export function principalKey(principal: Principal): string {
  return principal.type === 'session' ? `user:${principal.userId}` : `key:${principal.keyId}`;
}

/** JSON with object keys in sorted order at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) => {
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const record = inner as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    );
  });
}

/** What makes two requests the same request; only the parts the handler reads. */
export type RequestParts = { method: string; route: string; params: unknown; query: unknown; body: unknown };

/** SHA-256 (hex) of the method, the route's URL pattern, its parameters, the query and the parsed body. */
export function requestHash(parts: RequestParts): string {
  const text = canonicalJson([parts.method, parts.route, parts.params, parts.query, parts.body]);
  return createHash('sha256').update(text).digest('hex');
}

/** The fingerprint of a request as it arrived, before validation fills in defaults. */
export function requestHashOf(request: FastifyRequest): string {
  return requestHash({
    method: request.method,
    route: request.routeOptions.url ?? request.url,
    params: request.params,
    query: request.query,
    body: request.body,
  });
}
