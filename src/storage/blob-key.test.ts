import { describe, expect, it } from 'vitest';
import { assertValidBlobKey, assertValidBlobPrefix, blobKeyProblem } from './blob-key.ts';
import { InvalidBlobKeyError } from './errors.ts';

describe('blob keys', () => {
  it('accepts relative slash-separated keys', () => {
    for (const key of ['a', 'teams/12/media/abc.wav', 'teams/12/media/Take 3 (final).wav', 'x/ü/日本.flac']) {
      expect(assertValidBlobKey(key)).toBe(key);
    }
  });

  it.each([
    ['', 'empty key'],
    ['teams//media/a.wav', 'empty path segment'],
    ['teams/12/', 'empty path segment'],
    ['teams/../secrets', '".." segment'],
    ['..', '".." segment'],
    ['teams/./a.wav', '"." segment'],
    ['/etc/passwd', 'absolute path'],
    ['C:/Windows/win.ini', 'drive-letter path'],
    ['teams\\12\\a.wav', 'contains a backslash or a control character'],
    ['teams/12/a\u0000.wav', 'contains a backslash or a control character'],
    ['teams/12/a\n.wav', 'contains a backslash or a control character'],
    ['teams/.meta/a.wav', 'segment starting with "." (reserved for the store itself)'],
  ])('rejects %j', (key, reason) => {
    expect(blobKeyProblem(key)).toBe(reason);
    expect(() => assertValidBlobKey(key)).toThrow(InvalidBlobKeyError);
  });

  it('counts the 1024-byte limit in UTF-8 bytes', () => {
    expect(blobKeyProblem('a'.repeat(1024))).toBeUndefined();
    expect(blobKeyProblem('a'.repeat(1025))).toBe('longer than 1024 bytes');
    expect(blobKeyProblem('ü'.repeat(513))).toBe('longer than 1024 bytes');
  });

  it('accepts listing prefixes ending in a slash or a partial segment, and the empty prefix', () => {
    for (const prefix of ['', 'teams/', 'teams/12/media/', 'teams/12/med']) {
      expect(assertValidBlobPrefix(prefix)).toBe(prefix);
    }
    for (const prefix of ['/teams', 'teams//', '../', 'teams/../', 'a\\b']) {
      expect(() => assertValidBlobPrefix(prefix)).toThrow(InvalidBlobKeyError);
    }
  });
});
