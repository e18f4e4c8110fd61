import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from './ffmpeg.ts';
import { type EncodedFixture, encodedTone } from './ffmpeg-fixtures.ts';
import { computePeaks } from './peaks.ts';
import { computePeaksIsolated, PEAKS_LIMITS } from './peaks-runner.ts';

const SECONDS = 1.5;
const FIXTURES: [EncodedFixture, string, number][] = [
  ['m4a', 'mp4', 44_100],
  ['m4a-index-last', 'mp4', 44_100],
  ['aac', 'aac', 44_100],
  ['opus', 'ogg', 48_000],
  ['webm', 'webm', 48_000],
];
let dir = '';
const files = new Map<EncodedFixture, Buffer>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ffmpeg-peaks-'));
  for (const [fixture] of FIXTURES) files.set(fixture, await encodedTone(dir, fixture, SECONDS));
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

const ffmpeg = () => ({ path: ffmpegPath(), limits: PEAKS_LIMITS });

describe('waveforms decoded by FFmpeg', () => {
  it.each(FIXTURES)(
    'draws %s over the whole duration, in the waveform process',
    async (fixture, format, rate) => {
      const result = await computePeaksIsolated(Readable.from([files.get(fixture)!]), { buckets: 100 });
      if (!result.ok) throw new Error(result.message);
      const { peaks } = result;
      expect(peaks).toMatchObject({ format, sampleRate: rate, bucketCount: 100, decodeErrors: 0 });
      // Encoders add a few milliseconds of priming and padding, never a share of the tone.
      expect(peaks.durationSeconds).toBeGreaterThan(SECONDS - 0.01);
      expect(peaks.durationSeconds).toBeLessThan(SECONDS + 0.06);
      expect(Math.max(...peaks.max)).toBeCloseTo(0.5, 1);
      expect(Math.min(...peaks.min)).toBeCloseTo(-0.5, 1);
      // The tone fills every bucket to the end: the whole duration is drawn, not its start only.
      expect(Math.min(...peaks.max.slice(2, -2))).toBeGreaterThan(0.4);
    },
  );

  it('refuses those formats without FFmpeg, and other bytes with it, as unsupported', async () => {
    expect(await computePeaks(files.get('m4a')!)).toMatchObject({ ok: false, reason: 'unsupported_format' });
    expect(await computePeaks(Buffer.from('not audio at all'), { ffmpeg: ffmpeg() })).toMatchObject({
      ok: false,
      reason: 'unsupported_format',
      message: expect.stringContaining('Opus'),
    });
  });

  it('answers a damaged file with a typed failure', async () => {
    const head = files.get('m4a')!.subarray(0, 200);
    expect(await computePeaks(head, { ffmpeg: ffmpeg() })).toMatchObject({
      ok: false,
      reason: 'undecodable',
    });
    const noise = Buffer.alloc(5000);
    for (let i = 8; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    noise.write('OggS', 0);
    expect(await computePeaks(noise, { ffmpeg: ffmpeg() })).toMatchObject({
      ok: false,
      reason: 'undecodable',
    });
  });
});
