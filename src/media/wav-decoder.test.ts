import { fromBuffer } from 'strtok3';
import { describe, expect, it } from 'vitest';
import { AudioDecodeError } from './audio-errors.ts';
import { encodeWav, sine, type WavEncoding } from './test-audio.ts';
import { decodeWavSamples, readWavHeader } from './wav-decoder.ts';

async function decodeAll(bytes: Uint8Array, framesPerChunk?: number) {
  const tokenizer = fromBuffer(bytes);
  const format = await readWavHeader(tokenizer);
  const chunks: Float32Array[][] = [];
  for await (const chunk of decodeWavSamples(tokenizer, format, framesPerChunk)) chunks.push(chunk);
  const channels = format.channels;
  const joined = Array.from({ length: channels }, (_, c) => {
    const parts = chunks.map((chunk) => chunk[c] as Float32Array);
    const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  });
  return { format, channels: joined, chunks: chunks.length };
}

const tolerance: Record<WavEncoding, number> = {
  pcm8: 1 / 128,
  pcm16: 1 / 32_768,
  pcm24: 1 / 8_388_608,
  pcm32: 1e-7,
  float32: 1e-7,
  float64: 1e-7,
};

describe('WAV decoding', () => {
  it.each(Object.keys(tolerance) as WavEncoding[])('decodes %s samples exactly', async (encoding) => {
    const source = sine({ sampleRate: 8000, seconds: 0.25, amplitude: 0.8, channels: 2 });
    const { format, channels } = await decodeAll(encodeWav(source, 8000, encoding));
    expect(format).toMatchObject({
      channels: 2,
      sampleRate: 8000,
      bitsPerSample: Number(encoding.replace(/\D/g, '')),
    });
    for (let c = 0; c < 2; c++) {
      const decoded = channels[c] as Float32Array;
      const original = source[c] as Float32Array;
      expect(decoded).toHaveLength(original.length);
      let worst = 0;
      for (let i = 0; i < original.length; i++) {
        worst = Math.max(worst, Math.abs((decoded[i] as number) - (original[i] as number)));
      }
      expect(worst).toBeLessThanOrEqual(tolerance[encoding]);
    }
  });

  it('reads WAVE_FORMAT_EXTENSIBLE, skips other chunks with their pad byte, and streams in chunks', async () => {
    const source = sine({ sampleRate: 8000, seconds: 1, amplitude: 0.5 });
    const bytes = encodeWav(source, 8000, 'pcm24', { extensible: true, extraChunk: true });
    const { format, channels, chunks } = await decodeAll(bytes, 1000);
    expect(format).toMatchObject({ encoding: 'pcm', bitsPerSample: 24, dataBytes: 8000 * 3 });
    expect(channels[0]).toHaveLength(8000);
    expect(chunks).toBe(8);
  });

  it('reads a streamed WAV of unknown data size to the end', async () => {
    const source = sine({ sampleRate: 8000, seconds: 0.5, amplitude: 0.5 });
    const { format, channels } = await decodeAll(encodeWav(source, 8000, 'float32', { streamed: true }));
    expect(format.dataBytes).toBeUndefined();
    expect(channels[0]).toHaveLength(4000);
  });

  it('yields what a truncated file holds, dropping a partial frame', async () => {
    const bytes = encodeWav(
      sine({ sampleRate: 8000, seconds: 1, amplitude: 0.5, channels: 2 }),
      8000,
      'pcm16',
    );
    const { channels } = await decodeAll(bytes.subarray(0, 44 + 4 * 1000 + 3));
    expect(channels[0]).toHaveLength(1000);
  });

  it('refuses non-PCM and broken headers with a reason', async () => {
    const reasonOf = async (bytes: Uint8Array) => {
      try {
        await readWavHeader(fromBuffer(bytes));
        return 'ok';
      } catch (error) {
        return error instanceof AudioDecodeError ? error.reason : 'threw';
      }
    };
    const good = encodeWav(sine({ sampleRate: 8000, seconds: 0.1, amplitude: 0.5 }), 8000, 'pcm16');
    const adpcm = Buffer.from(good);
    adpcm.writeUInt16LE(0x0011, 20);
    expect(await reasonOf(adpcm)).toBe('unsupported_format');
    const twelveBit = Buffer.from(good);
    twelveBit.writeUInt16LE(12, 34);
    expect(await reasonOf(twelveBit)).toBe('unsupported_format');
    const badAlign = Buffer.from(good);
    badAlign.writeUInt16LE(7, 32);
    expect(await reasonOf(badAlign)).toBe('undecodable');
    expect(await reasonOf(good.subarray(0, 20))).toBe('undecodable');
    expect(await reasonOf(Buffer.from('RIFF\u0000\u0000\u0000\u0000AVI LIST'))).toBe('unsupported_format');
    const noData = good.subarray(0, 36);
    expect(await reasonOf(noData)).toBe('undecodable');
  });
});
