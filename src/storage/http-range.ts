import { create as contentDisposition } from 'content-disposition';
import type { ByteRange } from './blob-store.ts';

/**
 * How to answer a GET given its `Range` header:
 * - `full`: 200 with the whole body (no Range, a Range we ignore — other units, bad syntax, several ranges,
 *   or an If-Range that no longer matches);
 * - `partial`: 206 with `range`;
 * - `unsatisfiable`: 416 with `Content-Range: bytes *\/size` (see rangeNotSatisfiableHeaders).
 */
export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; range: ByteRange }
  | { kind: 'unsatisfiable' };

export type RangeValidators = {
  /** The request's If-Range header. */
  ifRange?: string | undefined;
  /** The blob's current strong ETag (quoted). */
  etag?: string;
  lastModified?: Date;
};

const FULL: RangeDecision = { kind: 'full' };
const UNSATISFIABLE: RangeDecision = { kind: 'unsatisfiable' };
// Each optional number takes the spaces after it, so no two runs of spaces meet: with `(\d*)\s*-` a long run
// of spaces in a header that does not match was split every way between them (quadratic in the run).
const SINGLE_RANGE = /^bytes\s*=\s*(?:(\d+)\s*)?-\s*(?:(\d+)\s*)?$/i;

function ifRangeMatches({ ifRange, etag, lastModified }: RangeValidators): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"')) return etag !== undefined && value === etag;
  if (value.startsWith('W/')) return false; // weak validators never match If-Range
  const date = Date.parse(value);
  return lastModified !== undefined && Math.floor(lastModified.getTime() / 1000) * 1000 === date;
}

function toInteger(digits: string): number | undefined {
  if (digits === '') return undefined;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER;
}

/** Decides between 200, 206 and 416 for a representation of `size` bytes (RFC 9110 §14). */
export function parseRange(
  header: string | undefined,
  size: number,
  validators: RangeValidators = {},
): RangeDecision {
  if (header === undefined || header.trim() === '' || !ifRangeMatches(validators)) return FULL;
  const match = SINGLE_RANGE.exec(header.trim());
  if (!match) return FULL;
  const first = toInteger(match[1] ?? '');
  const last = toInteger(match[2] ?? '');
  if (first === undefined) {
    if (last === undefined) return FULL;
    if (last === 0) return UNSATISFIABLE;
    if (size === 0) return FULL;
    return { kind: 'partial', range: { start: Math.max(0, size - last), end: size - 1 } };
  }
  if (last !== undefined && last < first) return FULL;
  if (first >= size) return UNSATISFIABLE;
  return { kind: 'partial', range: { start: first, end: Math.min(last ?? size - 1, size - 1) } };
}

/** A file name safe to put in a header: no path, no control characters, not empty, at most 200 characters. */
export function sanitizeDownloadName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const safe = cleaned === '' || cleaned === '.' || cleaned === '..' ? 'download' : cleaned;
  return [...safe].slice(0, 200).join('');
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266 with an RFC 5987/8187 encoded name). */
export function contentDispositionFor(
  downloadName: string,
  type: 'attachment' | 'inline' = 'attachment',
): string {
  return contentDisposition(sanitizeDownloadName(downloadName), { type });
}

export type DownloadHeadersInput = {
  contentType: string;
  /** The whole blob's size. */
  size: number;
  etag?: string;
  lastModified?: Date;
  /** Set for a 206 answer. */
  range?: ByteRange;
  /** Offer the body as a file to save under this name. */
  downloadName?: string;
  disposition?: 'attachment' | 'inline';
};

/** The headers of a 200 or 206 download answer; also right for HEAD. Keys are lower case. */
export function downloadHeaders(input: DownloadHeadersInput): Record<string, string> {
  const { range } = input;
  const headers: Record<string, string> = {
    'content-type': input.contentType,
    'content-length': String(range ? range.end - range.start + 1 : input.size),
    'accept-ranges': 'bytes',
    'cache-control': 'private',
    // User-uploaded bytes are served from the API's origin: never let a browser sniff or run them.
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  };
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${input.size}`;
  if (input.etag) headers.etag = input.etag;
  if (input.lastModified) headers['last-modified'] = input.lastModified.toUTCString();
  if (input.downloadName !== undefined) {
    headers['content-disposition'] = contentDispositionFor(input.downloadName, input.disposition);
  } else if (input.disposition) {
    headers['content-disposition'] = input.disposition;
  }
  return headers;
}

/** The headers of a 416 answer. */
export function rangeNotSatisfiableHeaders(size: number): Record<string, string> {
  return { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes', 'cache-control': 'private' };
}
