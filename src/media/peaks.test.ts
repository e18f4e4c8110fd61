import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computePeaks, type WaveformPeaks } from './peaks.ts';
import { encodeFlac, encodeMp3, encodeWav, sine } from './test-audio.ts';

let directory: string;
const files: Record<string, string> = {};
const AMPLITUDE = 0.5;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tmw-peaks-'));
  const stereo = sine({ sampleRate: 44_100, seconds: 2, frequency: 1000, amplitude: AMPLITUDE, channels: 2 });
  const mono = sine({ sampleRate: 44_100, seconds: 2, frequency: 1000, amplitude: AMPLITUDE });
  const id3 = Buffer.concat([Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u000a'), Buffer.alloc(10)]);
  const made: Record<string, Buffer> = {
    'pcm16.wav': encodeWav(stereo, 44_100, 'pcm16'),
    'pcm24.wav': encodeWav(stereo, 44_100, 'pcm24'),
    'pcm32.wav': encodeWav(stereo, 44_100, 'pcm32'),
    'float32.wav': encodeWav(stereo, 44_100, 'float32'),
    'mono.flac': await encodeFlac(mono, 44_100, 16),
    'stereo-24.flac': await encodeFlac(stereo, 44_100, 24),
    'mono.mp3': encodeMp3(mono, 44_100, 192),
    'stereo-tagged.mp3': Buffer.concat([id3, encodeMp3(stereo, 44_100, 192)]),
    'garbage.mp3': Buffer.from('definitely not an mp3 file '.repeat(100)),
    'silence.wav': encodeWav([new Float32Array(0)], 44_100, 'pcm16'),
  };
  for (const [name, bytes] of Object.entries(made)) {
    files[name] = path.join(directory, name);
    await writeFile(files[name], bytes);
  }
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const file = (name: string) => files[name] as string;

function expectSinePeaks(peaks: WaveformPeaks, tolerance: number, skipEdgeBuckets = 0): void {
  expect(peaks.bucketCount).toBe(1000);
  expect(peaks.min).toHaveLength(1000);
  expect(peaks.max).toHaveLength(1000);
  // 1 kHz over 2 s in 1000 buckets: every bucket holds 2 periods, so every bucket reaches both extremes.
  for (let j = skipEdgeBuckets; j < 1000 - skipEdgeBuckets; j++) {
    expect(Math.abs((peaks.max[j] as number) - AMPLITUDE), `max of bucket ${j}`).toBeLessThan(tolerance);
    expect(Math.abs((peaks.min[j] as number) + AMPLITUDE), `min of bucket ${j}`).toBeLessThan(tolerance);
  }
}

describe('computePeaks', () => {
  it.each(['pcm16.wav', 'pcm24.wav', 'pcm32.wav', 'float32.wav'])('draws a sine from %s', async (name) => {
    const result = await computePeaks(file(name));
    if (!result.ok) throw new Error(result.message);
    expect(result.peaks).toMatchObject({ format: 'wav', sampleRate: 44_100, frames: 88_200 });
    expect(result.peaks.durationSeconds).toBeCloseTo(2, 6);
    expectSinePeaks(result.peaks, 0.005);
  });

  it.each(['mono.flac', 'stereo-24.flac'])('draws a sine from %s', async (name) => {
    const result = await computePeaks(file(name));
    if (!result.ok) throw new Error(result.message);
    expect(result.peaks).toMatchObject({
      format: 'flac',
      sampleRate: 44_100,
      frames: 88_200,
      decodeErrors: 0,
    });
    expectSinePeaks(result.peaks, 0.005);
  });

  it.each(['mono.mp3', 'stereo-tagged.mp3'])('draws a sine from %s', async (name) => {
    const result = await computePeaks(file(name));
    if (!result.ok) throw new Error(result.message);
    expect(result.peaks).toMatchObject({ format: 'mp3', sampleRate: 44_100, decodeErrors: 0 });
    expect(Math.abs(result.peaks.durationSeconds - 2)).toBeLessThan(0.06);
    // A lossy codec: the sine comes back a few percent off, after the encoder's delay (~13 buckets here).
    expectSinePeaks(result.peaks, 0.06, 20);
  });

  it('reads from a stream and takes another bucket count', async () => {
    const result = await computePeaks(createReadStream(file('mono.flac')), { buckets: 50 });
    if (!result.ok) throw new Error(result.message);
    expect(result.peaks.bucketCount).toBe(50);
    expect(Math.max(...result.peaks.max)).toBeCloseTo(AMPLITUDE, 2);
  });

  it('answers typed failures for garbage, silence, unsupported and missing files', async () => {
    expect(await computePeaks(file('garbage.mp3'))).toMatchObject({
      ok: false,
      reason: 'unsupported_format',
    });
    expect(await computePeaks(file('silence.wav'))).toMatchObject({ ok: false, reason: 'no_audio' });
    expect(await computePeaks(Buffer.from('OggS\u0000\u0002 an ogg stream'))).toMatchObject({
      ok: false,
      reason: 'unsupported_format',
    });
    expect(await computePeaks(path.join(directory, 'missing.wav'))).toMatchObject({
      ok: false,
      reason: 'unreadable',
    });
    const wavHeaderOnly = encodeWav(
      sine({ sampleRate: 8000, seconds: 1, amplitude: 0.5 }),
      8000,
      'pcm16',
    ).subarray(0, 30);
    expect(await computePeaks(wavHeaderOnly)).toMatchObject({ ok: false, reason: 'undecodable' });
  });

  it('answers a typed failure for a FLAC whose frames are garbage', async () => {
    const noise = Buffer.alloc(20_000);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const result = await computePeaks(Buffer.concat([Buffer.from('fLaC'), noise]));
    expect(result).toMatchObject({ ok: false, reason: 'undecodable' });
  });

  it('refuses a bad bucket count', async () => {
    await expect(computePeaks(file('pcm16.wav'), { buckets: 0 })).rejects.toThrow(RangeError);
    await expect(computePeaks(file('pcm16.wav'), { buckets: 1_000_000 })).rejects.toThrow(RangeError);
  });
});
