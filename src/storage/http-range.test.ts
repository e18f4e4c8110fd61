import { describe, expect, it } from 'vitest';
import {
  contentDispositionFor,
  downloadHeaders,
  parseRange,
  rangeNotSatisfiableHeaders,
  sanitizeDownloadName,
} from './http-range.ts';

describe('parseRange', () => {
  const size = 1000;

  it('decides a header of the largest size Node reads (16 KiB) of spaces that never match at once', () => {
    const header = `bytes=${' '.repeat(16 * 1024)}x`;
    const start = performance.now();
    expect(parseRange(header, size)).toEqual({ kind: 'full' });
    // Quadratic before: about 1 s on a 2-core machine; now well under a millisecond.
    expect(performance.now() - start).toBeLessThan(50);
  });

  it('serves the whole body without a Range header', () => {
    expect(parseRange(undefined, size)).toEqual({ kind: 'full' });
    expect(parseRange('', size)).toEqual({ kind: 'full' });
  });

  it.each([
    ['bytes=0-499', 0, 499],
    ['bytes=500-999', 500, 999],
    ['bytes=500-', 500, 999],
    ['bytes=-200', 800, 999],
    ['bytes=0-0', 0, 0],
    ['bytes=990-5000', 990, 999],
    ['bytes=-5000', 0, 999],
    ['BYTES = 10 - 20', 10, 20],
    ['bytes=999-', 999, 999],
  ])('%s -> %i-%i', (header, start, end) => {
    expect(parseRange(header, size)).toEqual({ kind: 'partial', range: { start, end } });
  });

  it.each(['bytes=1000-', 'bytes=1000-1001', 'bytes=5000-6000', 'bytes=-0'])(
    '%s is unsatisfiable',
    (header) => {
      expect(parseRange(header, size)).toEqual({ kind: 'unsatisfiable' });
    },
  );

  it('makes any range of an empty body unsatisfiable except a suffix, which serves the (empty) whole', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-0', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-10', 0)).toEqual({ kind: 'full' });
  });

  it.each([
    'bytes=0-1,5-6',
    'bytes=500-100',
    'bytes=-',
    'bytes=a-b',
    'items=0-10',
    'bytes 0-10',
    'bytes=0x10-20',
    'bytes=1.5-2',
  ])('ignores %j and serves the whole body', (header) => {
    expect(parseRange(header, size)).toEqual({ kind: 'full' });
  });

  it('treats absurdly large numbers safely', () => {
    expect(parseRange('bytes=99999999999999999999-', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-99999999999999999999', size)).toEqual({
      kind: 'partial',
      range: { start: 0, end: 999 },
    });
  });

  it('honours If-Range only when it matches the strong ETag or the exact Last-Modified', () => {
    const etag = '"abc-1"';
    const lastModified = new Date('2025-01-02T03:04:05.678Z');
    const partial = { kind: 'partial', range: { start: 0, end: 9 } };
    expect(parseRange('bytes=0-9', size, { ifRange: etag, etag, lastModified })).toEqual(partial);
    expect(parseRange('bytes=0-9', size, { ifRange: '"other"', etag, lastModified })).toEqual({
      kind: 'full',
    });
    expect(parseRange('bytes=0-9', size, { ifRange: 'W/"abc-1"', etag, lastModified })).toEqual({
      kind: 'full',
    });
    expect(
      parseRange('bytes=0-9', size, { ifRange: lastModified.toUTCString(), etag, lastModified }),
    ).toEqual(partial);
    expect(
      parseRange('bytes=0-9', size, { ifRange: new Date('2025-01-01').toUTCString(), etag, lastModified }),
    ).toEqual({ kind: 'full' });
  });
});

describe('download headers', () => {
  it('describes a full download', () => {
    const lastModified = new Date('2025-01-02T03:04:05Z');
    expect(downloadHeaders({ contentType: 'audio/wav', size: 1000, etag: '"e"', lastModified })).toEqual({
      'content-type': 'audio/wav',
      'content-length': '1000',
      'accept-ranges': 'bytes',
      'cache-control': 'private',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      etag: '"e"',
      'last-modified': 'Thu, 02 Jan 2025 03:04:05 GMT',
    });
  });

  it('describes a 206 answer', () => {
    const headers = downloadHeaders({
      contentType: 'audio/wav',
      size: 1000,
      range: { start: 100, end: 199 },
    });
    expect(headers['content-length']).toBe('100');
    expect(headers['content-range']).toBe('bytes 100-199/1000');
  });

  it('offers a download name with an ASCII fallback and an RFC 5987 UTF-8 name', () => {
    const headers = downloadHeaders({
      contentType: 'audio/flac',
      size: 1,
      downloadName: 'Café «demo» "v2".flac',
    });
    expect(headers['content-disposition']).toBe(
      `attachment; filename="Caf? ?demo? \\"v2\\".flac"; filename*=UTF-8''Caf%C3%A9%20%C2%ABdemo%C2%BB%20%22v2%22.flac`,
    );
    expect(contentDispositionFor('plain.wav', 'inline')).toBe('inline; filename=plain.wav');
  });

  it('strips paths and control characters from download names', () => {
    expect(sanitizeDownloadName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeDownloadName('C:\\Users\\x\\a.wav')).toBe('a.wav');
    expect(sanitizeDownloadName('a\r\nSet-Cookie: x.wav')).toBe('aSet-Cookie: x.wav');
    expect(sanitizeDownloadName('..')).toBe('download');
    expect(sanitizeDownloadName('')).toBe('download');
    expect(contentDispositionFor('evil\r\n.wav')).not.toMatch(/[\r\n]/);
  });

  it('builds the 416 headers', () => {
    expect(rangeNotSatisfiableHeaders(1234)).toEqual({
      'content-range': 'bytes */1234',
      'accept-ranges': 'bytes',
      'cache-control': 'private',
    });
  });
});
