import { describe, expect, it } from 'vitest';
import { guessContentType, mediaTypeOf } from './content-type.ts';
import { checkFileLimits, defaultFileLimits, withMaxBytes } from './limits.ts';

const MiB = 1024 * 1024;

describe('file limits', () => {
  it('accepts allowed types within the size, ignoring case and parameters', () => {
    expect(checkFileLimits({ kind: 'audio', contentType: 'audio/wav', size: 100 * MiB })).toEqual({
      ok: true,
    });
    expect(checkFileLimits({ kind: 'audio', contentType: 'Audio/FLAC; foo=bar', size: 1 })).toEqual({
      ok: true,
    });
    expect(checkFileLimits({ kind: 'image', contentType: 'image/avif', size: 20 * MiB })).toEqual({
      ok: true,
    });
    expect(checkFileLimits({ kind: 'document', contentType: 'text/markdown', size: 0 })).toEqual({
      ok: true,
    });
  });

  it('refuses other content types with 400 unsupported_file_type', () => {
    for (const [kind, contentType] of [
      ['audio', 'image/png'],
      ['image', 'image/svg+xml'],
      ['document', 'text/html'],
      ['audio', ''],
    ] as const) {
      const result = checkFileLimits({ kind, contentType, size: 1 });
      expect(result).toMatchObject({ ok: false, status: 400, code: 'unsupported_file_type' });
    }
  });

  it('refuses files over the maximum with 413 payload_too_large', () => {
    expect(checkFileLimits({ kind: 'audio', contentType: 'audio/mpeg', size: 1024 * MiB + 1 })).toEqual({
      ok: false,
      status: 413,
      code: 'payload_too_large',
      message: 'audio files may be at most 1 GiB',
    });
    expect(checkFileLimits({ kind: 'image', contentType: 'image/png', size: 20 * MiB + 1 })).toMatchObject({
      status: 413,
    });
    expect(
      checkFileLimits({ kind: 'document', contentType: 'application/pdf', size: 50 * MiB + 1 }),
    ).toMatchObject({ status: 413 });
  });

  it('uses overridden limits', () => {
    const limits = withMaxBytes(defaultFileLimits, { audio: 10, image: undefined });
    expect(limits.audio.maxBytes).toBe(10);
    expect(limits.image.maxBytes).toBe(20 * MiB);
    expect(checkFileLimits({ kind: 'audio', contentType: 'audio/wav', size: 11 }, limits)).toMatchObject({
      status: 413,
      message: 'audio files may be at most 10 bytes',
    });
    expect(defaultFileLimits.audio.maxBytes).toBe(1024 * MiB);
  });

  it('rejects impossible sizes as a programming error', () => {
    expect(() => checkFileLimits({ kind: 'audio', contentType: 'audio/wav', size: -1 })).toThrow(RangeError);
    expect(() => checkFileLimits({ kind: 'audio', contentType: 'audio/wav', size: Number.NaN })).toThrow(
      RangeError,
    );
  });
});

describe('content types', () => {
  it.each([
    ['take.wav', 'audio/wav'],
    ['Take 3.WAV', 'audio/wav'],
    ['mix.flac', 'audio/flac'],
    ['song.mp3', 'audio/mpeg'],
    ['voice.m4a', 'audio/mp4'],
    ['a.aiff', 'audio/aiff'],
    ['a.opus', 'audio/opus'],
    ['a.ogg', 'audio/ogg'],
    ['cover.jpg', 'image/jpeg'],
    ['cover.webp', 'image/webp'],
    ['lyrics.md', 'text/markdown'],
    ['chart.pdf', 'application/pdf'],
    ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['dir/sub/notes.txt', 'text/plain'],
  ])('guesses %s -> %s', (name, type) => {
    expect(guessContentType(name)).toBe(type);
  });

  it('every guessed audio, image and document type passes its own limits', () => {
    for (const name of ['a.wav', 'a.flac', 'a.mp3', 'a.m4a', 'a.aiff', 'a.ogg', 'a.opus', 'a.aac']) {
      expect(checkFileLimits({ kind: 'audio', contentType: guessContentType(name) ?? '', size: 1 }).ok).toBe(
        true,
      );
    }
    for (const name of ['a.png', 'a.jpg', 'a.jpeg', 'a.gif', 'a.webp', 'a.avif']) {
      expect(checkFileLimits({ kind: 'image', contentType: guessContentType(name) ?? '', size: 1 }).ok).toBe(
        true,
      );
    }
    for (const name of ['a.pdf', 'a.txt', 'a.md', 'a.csv', 'a.docx', 'a.xlsx', 'a.musicxml']) {
      expect(
        checkFileLimits({ kind: 'document', contentType: guessContentType(name) ?? '', size: 1 }).ok,
      ).toBe(true);
    }
  });

  it('returns undefined without a known extension', () => {
    for (const name of ['README', 'archive.', '.hidden', 'file.unknownext']) {
      expect(guessContentType(name)).toBeUndefined();
    }
  });

  it('reduces a Content-Type to its media type', () => {
    expect(mediaTypeOf(' Audio/Wav ; codecs=1')).toBe('audio/wav');
    expect(mediaTypeOf(undefined)).toBe('');
  });
});
