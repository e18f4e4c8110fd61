import type { LightMyRequestResponse } from 'fastify';
import type { Operation } from './operations.ts';

const UNAUTHORIZED = '{"error":"Unauthorized"}';

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function isEnvelope(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { error, code, details } = value as Record<string, unknown>;
  if (typeof error !== 'string' || typeof code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(code)) return false;
  if (details === undefined) return true;
  return (
    Array.isArray(details) &&
    details.every(
      (d) => typeof d === 'object' && d !== null && typeof (d as { path?: unknown }).path === 'string',
    )
  );
}

/** A path segment `..` (a hostile path parameter) makes the request's path another one, of another operation. */
const LEAVES_PATH = /\/\.\.(?:[/?]|$)/;
/** A path segment left empty (an empty path parameter) does the same. */
const EMPTY_SEGMENT = /\/\/|\/(?:\?|$)/;

/** Whether a path is not valid percent-encoded UTF-8: the router cannot place it under any operation. */
function unplaceable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** Whether a hostile path parameter took the request to another path than its operation's, or to none. */
function leavesPath(operation: Operation, url: string): boolean {
  if (LEAVES_PATH.test(url)) return true;
  const path = url.split('?')[0] ?? '';
  return unplaceable(path) || (EMPTY_SEGMENT.test(path) && !EMPTY_SEGMENT.test(operation.path));
}

/**
 * What is wrong with an answer under the contract, or undefined when nothing is. A request whose path leaves
 * the operation's (`..`, an empty segment) is held to the contract of every answer, not to the operation's list
 * of statuses.
 */
export function problemWith(operation: Operation, res: LightMyRequestResponse, url = ''): string | undefined {
  const type = String(res.headers['content-type'] ?? '');
  if (!operation.statuses.has(String(res.statusCode)) && !leavesPath(operation, url))
    return `answered ${res.statusCode}, which its document does not list: ${res.body.slice(0, 200)}`;
  if (res.statusCode >= 500) return `answered ${res.statusCode}: ${res.body.slice(0, 300)}`;
  if (res.statusCode === 401)
    return res.body === UNAUTHORIZED ? undefined : `401 body ${res.body.slice(0, 200)}`;
  if (res.statusCode >= 400) {
    if (!type.includes('application/json')) return `${res.statusCode} with content-type ${type}`;
    return isEnvelope(parsed(res.body))
      ? undefined
      : `${res.statusCode} outside the envelope: ${res.body.slice(0, 200)}`;
  }
  if (res.statusCode === 204) return res.body === '' ? undefined : '204 with a body';
  if (
    res.statusCode >= 200 &&
    res.statusCode < 300 &&
    operation.answersJson &&
    type.includes('application/json')
  ) {
    return parsed(res.body) === undefined ? `${res.statusCode} with invalid JSON` : undefined;
  }
  return undefined;
}
