import { InvalidBlobKeyError } from './errors.ts';

export const MAX_BLOB_KEY_BYTES = 1024;

// Control characters (NUL included) and backslashes are never part of a key.
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'empty path segment';
  if (segment === '.' || segment === '..') return `"${segment}" segment`;
  if (segment.startsWith('.')) return 'segment starting with "." (reserved for the store itself)';
  return undefined;
}

function commonProblem(value: string): string | undefined {
  if (Buffer.byteLength(value, 'utf8') > MAX_BLOB_KEY_BYTES) return `longer than ${MAX_BLOB_KEY_BYTES} bytes`;
  if (FORBIDDEN_CHARACTERS.test(value)) return 'contains a backslash or a control character';
  if (value.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(value)) return 'drive-letter path';
  return undefined;
}

/** Why `key` is not a valid blob key, or undefined when it is one. */
export function blobKeyProblem(key: string): string | undefined {
  if (typeof key !== 'string' || key === '') return 'empty key';
  const common = commonProblem(key);
  if (common) return common;
  for (const segment of key.split('/')) {
    const problem = segmentProblem(segment);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The one check every store runs on a key: a relative, slash-separated path like `teams/12/media/abc.wav`
 * with no empty, `.` or `..` segment, no segment starting with a dot, no absolute or drive path,
 * no backslash, no control character and at most 1024 UTF-8 bytes.
 */
export function assertValidBlobKey(key: string): string {
  const problem = blobKeyProblem(key);
  if (problem) throw new InvalidBlobKeyError(key, problem);
  return key;
}

/**
 * A listing prefix: empty (everything), or the start of a key — whole segments separated by slashes,
 * optionally ending with a slash or with the beginning of a segment (`teams/12/media/ab`).
 */
export function assertValidBlobPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const problem =
    commonProblem(prefix) ??
    prefix
      .split('/')
      .map((segment, index, all) =>
        index === all.length - 1 && segment === '' ? undefined : segmentProblem(segment),
      )
      .find((p) => p !== undefined);
  if (problem) throw new InvalidBlobKeyError(prefix, problem);
  return prefix;
}
