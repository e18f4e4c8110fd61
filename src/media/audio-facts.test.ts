import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudioFacts } from './audio-facts.ts';
import { encodeFlac, encodeMp3, encodeWav, sine } from './test-audio.ts';

let directory: string;
const files: Record<string, string> = {};

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'tmw-facts-'));
  const stereo = sine({ sampleRate: 48_000, seconds: 2, amplitude: 0.5, channels: 2 });
  const mono = sine({ sampleRate: 44_100, seconds: 1.5, amplitude: 0.5 });
  const made: Record<string, Buffer> = {
    'stereo-16.wav': encodeWav(stereo, 48_000, 'pcm16'),
    'mono-float.wav': encodeWav(mono, 44_100, 'float32'),
    'mono-24.wav': encodeWav(mono, 44_100, 'pcm24', { extensible: true }),
    'stereo.flac': await encodeFlac(stereo, 48_000, 16),
    'mono.mp3': encodeMp3(mono, 44_100, 128),
    'garbage.wav': Buffer.from('this is not audio at all, just words '.repeat(50)),
    'empty.mp3': Buffer.alloc(0),
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

describe('readAudioFacts', () => {
  it('reads a 16-bit stereo WAV', async () => {
    const result = await readAudioFacts(file('stereo-16.wav'));
    expect(result).toEqual({
      ok: true,
      facts: {
        durationSeconds: 2,
        sampleRate: 48_000,
        channels: 2,
        bitsPerSample: 16,
        bitrate: 1_536_000,
        codec: 'PCM',
        container: 'WAVE',
        lossless: true,
      },
    });
  });

  it('reads float and extensible 24-bit WAVs', async () => {
    const float = await readAudioFacts(file('mono-float.wav'));
    expect(float).toMatchObject({ ok: true, facts: { sampleRate: 44_100, channels: 1, bitsPerSample: 32 } });
    if (float.ok) expect(float.facts.durationSeconds).toBeCloseTo(1.5, 3);
    const extensible = await readAudioFacts(file('mono-24.wav'));
    expect(extensible).toMatchObject({
      ok: true,
      facts: { sampleRate: 44_100, channels: 1, bitsPerSample: 24 },
    });
    if (extensible.ok) expect(extensible.facts.durationSeconds).toBeCloseTo(1.5, 3);
  });

  it('reads a FLAC file', async () => {
    const result = await readAudioFacts(file('stereo.flac'));
    expect(result).toMatchObject({
      ok: true,
      facts: {
        sampleRate: 48_000,
        channels: 2,
        bitsPerSample: 16,
        codec: 'FLAC',
        container: 'FLAC',
        lossless: true,
      },
    });
    if (result.ok) {
      expect(result.facts.durationSeconds).toBeCloseTo(2, 3);
      expect(result.facts.bitrate).toBeGreaterThan(0);
    }
  });

  it('reads an MP3 file', async () => {
    const result = await readAudioFacts(file('mono.mp3'));
    expect(result).toMatchObject({
      ok: true,
      facts: { sampleRate: 44_100, channels: 1, bitrate: 128_000, container: 'MPEG', lossless: false },
    });
    if (result.ok) {
      expect(result.facts.codec).toMatch(/Layer 3/);
      expect(result.facts.bitsPerSample).toBeNull();
      // Encoder delay and the last partial frame add up to ~2 frames (1152 samples each) on top.
      expect(Math.abs(result.facts.durationSeconds - 1.5)).toBeLessThan(0.06);
    }
  });

  it('reads from a buffer and from a stream', async () => {
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(file('stereo.flac'));
    expect(await readAudioFacts(bytes)).toMatchObject({
      ok: true,
      facts: { channels: 2, sampleRate: 48_000 },
    });
    const chunks = [bytes.subarray(0, 100), bytes.subarray(100, 5000), bytes.subarray(5000)];
    expect(
      await readAudioFacts(Readable.from(chunks), { contentType: 'audio/flac', size: bytes.length }),
    ).toMatchObject({ ok: true, facts: { channels: 2, sampleRate: 48_000 } });
  });

  it('answers a typed failure for garbage, empty and missing files', async () => {
    const garbage = await readAudioFacts(file('garbage.wav'));
    expect(garbage.ok).toBe(false);
    // Named .wav, the parser tries WAV and finds no audio stream; without a name nothing matches at all.
    if (!garbage.ok) expect(['no_audio', 'unsupported_format']).toContain(garbage.reason);
    expect(await readAudioFacts(Buffer.from('this is not audio at all '.repeat(50)))).toMatchObject({
      ok: false,
      reason: 'unsupported_format',
    });
    expect(await readAudioFacts(Buffer.from([0x00, 0x01, 0x02]))).toMatchObject({ ok: false });
    const empty = await readAudioFacts(file('empty.mp3'));
    expect(empty.ok).toBe(false);
    expect(await readAudioFacts(path.join(directory, 'missing.wav'))).toMatchObject({
      ok: false,
      reason: 'unreadable',
    });
    expect(await readAudioFacts(directory)).toMatchObject({ ok: false });
  });

  it('answers a typed failure for a WAV cut inside its header', async () => {
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(file('stereo-16.wav'));
    const result = await readAudioFacts(bytes.subarray(0, 30));
    expect(result.ok).toBe(false);
  });
});
