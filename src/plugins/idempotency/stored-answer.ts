import type { FastifyReply } from 'fastify';
import type { StoredAnswer } from './idempotency.repository.ts';

export const REPLAYED_HEADER = 'idempotent-replayed';

/** The headers a replay needs; per-request ones (rate limits, request id) are fresh on every answer. */
const KEPT_HEADERS = ['content-type', 'location'] as const;

/**
 * Whether an answer is final for its request: successes and client errors are, except those that ask the
 * client to come back (401 to sign in again, 408, 429, anything with Retry-After). Server errors are not:
 * the claim is released so a retry runs.
 */
function isFinal(reply: FastifyReply): boolean {
  const status = reply.statusCode;
  const final = (status >= 200 && status < 300) || (status >= 400 && status < 500);
  return final && status !== 401 && status !== 408 && status !== 429 && !reply.hasHeader('retry-after');
}

/**
 * What to store of an answer about to be sent, or null when it is not stored: not final, or a payload
 * other than text (a stream or bytes, which cannot be kept and replayed as they were).
 */
export function answerToStore(reply: FastifyReply, payload: unknown): StoredAnswer | null {
  if (!isFinal(reply)) return null;
  if (payload !== undefined && payload !== null && typeof payload !== 'string') return null;
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status: reply.statusCode, headers, body: payload ?? '' };
}

/** Sends a stored answer again, marked as a replay. */
export function replay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  reply.code(answer.status).headers(answer.headers).header(REPLAYED_HEADER, 'true');
  return reply.send(answer.body === '' ? undefined : answer.body);
}
