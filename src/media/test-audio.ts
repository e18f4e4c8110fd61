import { createRequire } from 'node:module';
import { Mp3Encoder } from '@breezystack/lamejs';

/** Test-only helpers that make audio files in memory (the encoders are devDependencies). */

export type WavEncoding = 'pcm8' | 'pcm16' | 'pcm24' | 'pcm32' | 'float32' | 'float64';

export function sine(options: {
  sampleRate: number;
  seconds: number;
  frequency?: number;
  amplitude: number;
  channels?: number;
}): Float32Array[] {
  const frames = Math.round(options.sampleRate * options.seconds);
  const frequency = options.frequency ?? 440;
  return Array.from({ length: options.channels ?? 1 }, (_, channel) => {
    const samples = new Float32Array(frames);
    for (let i = 0; i < frames; i++) {
      // Channels differ in phase so a channel mix-up would show.
      samples[i] = options.amplitude * Math.sin((2 * Math.PI * frequency * i) / options.sampleRate + channel);
    }
    return samples;
  });
}

const clampInt = (value: number, bits: number) => {
  const limit = 2 ** (bits - 1);
  return Math.max(-limit, Math.min(limit - 1, Math.round(value * limit)));
};

/** A canonical RIFF/WAVE file; `extensible` writes WAVE_FORMAT_EXTENSIBLE, `streamed` an unknown data size. */
export function encodeWav(
  channels: Float32Array[],
  sampleRate: number,
  encoding: WavEncoding,
  options: { extensible?: boolean; streamed?: boolean; extraChunk?: boolean } = {},
): Buffer {
  const bits = Number(encoding.replace(/\D/g, ''));
  const isFloat = encoding.startsWith('float');
  const bytesPerSample = bits / 8;
  const frames = channels[0]?.length ?? 0;
  const blockAlign = channels.length * bytesPerSample;
  const data = Buffer.alloc(frames * blockAlign);
  for (let frame = 0; frame < frames; frame++) {
    for (let channel = 0; channel < channels.length; channel++) {
      const value = (channels[channel] as Float32Array)[frame] as number;
      const offset = frame * blockAlign + channel * bytesPerSample;
      if (encoding === 'float32') data.writeFloatLE(value, offset);
      else if (encoding === 'float64') data.writeDoubleLE(value, offset);
      else if (bits === 8) data.writeUInt8(clampInt(value, 8) + 128, offset);
      else data.writeIntLE(clampInt(value, bits), offset, bytesPerSample);
    }
  }
  const fmtSize = options.extensible ? 40 : 16;
  const fmt = Buffer.alloc(8 + fmtSize);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(fmtSize, 4);
  fmt.writeUInt16LE(options.extensible ? 0xfffe : isFloat ? 3 : 1, 8);
  fmt.writeUInt16LE(channels.length, 10);
  fmt.writeUInt32LE(sampleRate, 12);
  fmt.writeUInt32LE(sampleRate * blockAlign, 16);
  fmt.writeUInt16LE(blockAlign, 20);
  fmt.writeUInt16LE(bits, 22);
  if (options.extensible) {
    fmt.writeUInt16LE(22, 24);
    fmt.writeUInt16LE(bits, 26);
    fmt.writeUInt32LE(0, 28);
    // KSDATAFORMAT_SUBTYPE_PCM / _IEEE_FLOAT: the format tag followed by a fixed GUID tail.
    fmt.writeUInt16LE(isFloat ? 3 : 1, 32);
    Buffer.from('000000001000800000aa00389b71', 'hex').copy(fmt, 34);
  }
  // An odd-sized chunk before the data, with its pad byte: readers must skip both.
  const extra = options.extraChunk
    ? Buffer.from([...Buffer.from('LIST'), 3, 0, 0, 0, ...Buffer.from('abc'), 0])
    : Buffer.alloc(0);
  const dataHeader = Buffer.alloc(8);
  dataHeader.write('data', 0, 'ascii');
  dataHeader.writeUInt32LE(options.streamed ? 0xffffffff : data.length, 4);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(options.streamed ? 0xffffffff : 4 + fmt.length + extra.length + 8 + data.length, 4);
  riff.write('WAVE', 8, 'ascii');
  return Buffer.concat([riff, fmt, extra, dataHeader, data]);
}

function toInt16(samples: Float32Array): Int16Array {
  return Int16Array.from(samples, (value) => clampInt(value, 16));
}

/** MP3 (CBR, no LAME/Xing header) through lamejs, a pure JavaScript encoder. */
export function encodeMp3(channels: Float32Array[], sampleRate: number, kbps = 128): Buffer {
  const encoder = new Mp3Encoder(channels.length, sampleRate, kbps);
  const left = toInt16(channels[0] as Float32Array);
  const right = channels[1] ? toInt16(channels[1]) : undefined;
  const parts: Uint8Array[] = [];
  const block = 1152 * 16;
  for (let i = 0; i < left.length; i += block) {
    parts.push(encoder.encodeBuffer(left.subarray(i, i + block), right?.subarray(i, i + block)));
  }
  parts.push(encoder.flush());
  // lamejs hands out Int8Arrays despite its types.
  return Buffer.concat(parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.byteLength)));
}

type FlacModule = { isReady(): boolean; on(event: 'ready', listener: () => void): void };
type FlacEncoder = {
  encode(channels?: Int32Array[]): boolean;
  getSamples(): Uint8Array;
  readonly metadata: unknown;
  destroy(): void;
};
type FlacEncoderClass = new (
  flac: FlacModule,
  options: { sampleRate: number; channels: number; bitsPerSample: number; compression: number },
) => FlacEncoder;

/** FLAC through libflacjs (the reference libFLAC compiled to JavaScript). */
export async function encodeFlac(
  channels: Float32Array[],
  sampleRate: number,
  bitsPerSample = 16,
): Promise<Buffer> {
  const require = createRequire(import.meta.url);
  const flac = (require('libflacjs') as (variant?: string) => FlacModule)();
  if (!flac.isReady()) await new Promise<void>((resolve) => flac.on('ready', resolve));
  const { Encoder } = require('libflacjs/lib/encoder') as { Encoder: FlacEncoderClass };
  const { exportFlacFile } = require('libflacjs/lib/utils') as {
    exportFlacFile(data: Uint8Array[], metadata: unknown, isOgg: boolean): Blob;
  };
  const encoder = new Encoder(flac, { sampleRate, channels: channels.length, bitsPerSample, compression: 5 });
  try {
    encoder.encode(
      channels.map((samples) => Int32Array.from(samples, (value) => clampInt(value, bitsPerSample))),
    );
    encoder.encode();
    const file = exportFlacFile([encoder.getSamples()], encoder.metadata, false);
    return Buffer.from(await file.arrayBuffer());
  } finally {
    encoder.destroy();
  }
}
