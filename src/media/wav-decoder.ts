import type { ITokenizer } from 'strtok3';
import { AudioDecodeError } from './audio-errors.ts';

export type WavFormat = {
  encoding: 'pcm' | 'float';
  bitsPerSample: number;
  channels: number;
  sampleRate: number;
  /** Bytes per frame (one sample of every channel). */
  blockAlign: number;
  /** Bytes of sample data, or undefined when the header does not say (streamed WAV): read to the end. */
  dataBytes: number | undefined;
};

const FORMAT_PCM = 0x0001;
const FORMAT_FLOAT = 0x0003;
const FORMAT_EXTENSIBLE = 0xfffe;
const UNKNOWN_SIZE = 0xffffffff;

const SUPPORTED_BITS = { pcm: [8, 16, 24, 32], float: [32, 64] } as const;

async function readExactly(tokenizer: ITokenizer, length: number, what: string): Promise<DataView> {
  const bytes = new Uint8Array(length);
  const read = await tokenizer.readBuffer(bytes, { mayBeLess: true });
  if (read < length) throw new AudioDecodeError('undecodable', `The WAV file ends inside its ${what}`);
  return new DataView(bytes.buffer);
}

const fourCC = (view: DataView, offset: number) =>
  String.fromCharCode(
    view.getUint8(offset),
    view.getUint8(offset + 1),
    view.getUint8(offset + 2),
    view.getUint8(offset + 3),
  );

function parseFmt(view: DataView, dataBytes: number | undefined): WavFormat {
  let tag = view.getUint16(0, true);
  const channels = view.getUint16(2, true);
  const sampleRate = view.getUint32(4, true);
  const blockAlign = view.getUint16(12, true);
  const bitsPerSample = view.getUint16(14, true);
  if (tag === FORMAT_EXTENSIBLE && view.byteLength >= 26) tag = view.getUint16(24, true);
  const encoding = tag === FORMAT_PCM ? 'pcm' : tag === FORMAT_FLOAT ? 'float' : undefined;
  if (!encoding)
    throw new AudioDecodeError('unsupported_format', `WAV sample format 0x${tag.toString(16)} is not PCM`);
  if (!(SUPPORTED_BITS[encoding] as readonly number[]).includes(bitsPerSample)) {
    throw new AudioDecodeError('unsupported_format', `${bitsPerSample}-bit ${encoding} WAV is not supported`);
  }
  if (channels < 1 || sampleRate < 1 || blockAlign !== (channels * bitsPerSample) / 8) {
    throw new AudioDecodeError('undecodable', 'The WAV format chunk is inconsistent');
  }
  return { encoding, bitsPerSample, channels, sampleRate, blockAlign, dataBytes };
}

/**
 * Reads the RIFF/WAVE header up to the start of the sample data: the tokenizer is then positioned on the first
 * frame. Throws AudioDecodeError for non-PCM or broken files.
 */
export async function readWavHeader(tokenizer: ITokenizer): Promise<WavFormat> {
  const riff = await readExactly(tokenizer, 12, 'header');
  if (fourCC(riff, 0) !== 'RIFF' || fourCC(riff, 8) !== 'WAVE') {
    throw new AudioDecodeError('unsupported_format', 'Not a RIFF/WAVE file');
  }
  let fmt: DataView | undefined;
  for (;;) {
    const chunk = await readExactly(tokenizer, 8, 'chunk list (no data chunk)');
    const id = fourCC(chunk, 0);
    const size = chunk.getUint32(4, true);
    if (id === 'data') {
      if (!fmt) throw new AudioDecodeError('undecodable', 'The WAV data chunk comes before its format chunk');
      return parseFmt(fmt, size === UNKNOWN_SIZE ? undefined : size);
    }
    if (id === 'fmt ') {
      if (size < 16) throw new AudioDecodeError('undecodable', 'The WAV format chunk is too short');
      fmt = await readExactly(tokenizer, size, 'format chunk');
      if (size % 2 === 1) await tokenizer.ignore(1);
    } else {
      await tokenizer.ignore(size + (size % 2));
    }
  }
}

type SampleReader = (view: DataView, offset: number) => number;

function sampleReader(format: WavFormat): SampleReader {
  if (format.encoding === 'float') {
    return format.bitsPerSample === 32 ? (v, o) => v.getFloat32(o, true) : (v, o) => v.getFloat64(o, true);
  }
  switch (format.bitsPerSample) {
    case 8:
      return (v, o) => (v.getUint8(o) - 128) / 128;
    case 16:
      return (v, o) => v.getInt16(o, true) / 32_768;
    case 24:
      return (v, o) => ((v.getInt8(o + 2) << 16) | (v.getUint8(o + 1) << 8) | v.getUint8(o)) / 8_388_608;
    default:
      return (v, o) => v.getInt32(o, true) / 2_147_483_648;
  }
}

/**
 * The sample data after readWavHeader, as per-channel Float32 arrays in -1..1, `framesPerChunk` frames at a
 * time (memory stays bounded whatever the file's length). A file cut short yields what it has.
 */
export async function* decodeWavSamples(
  tokenizer: ITokenizer,
  format: WavFormat,
  framesPerChunk = 16_384,
): AsyncGenerator<Float32Array[]> {
  const read = sampleReader(format);
  const bytesPerSample = format.bitsPerSample / 8;
  let remaining = format.dataBytes ?? Number.POSITIVE_INFINITY;
  const buffer = new Uint8Array(framesPerChunk * format.blockAlign);
  const view = new DataView(buffer.buffer);
  while (remaining >= format.blockAlign) {
    const wanted = Math.min(buffer.length, Math.floor(remaining / format.blockAlign) * format.blockAlign);
    const got = await tokenizer.readBuffer(buffer, { length: wanted, mayBeLess: true });
    const frames = Math.floor(got / format.blockAlign);
    if (frames === 0) return;
    remaining -= got;
    const channels = Array.from({ length: format.channels }, () => new Float32Array(frames));
    for (let frame = 0; frame < frames; frame++) {
      const base = frame * format.blockAlign;
      for (let channel = 0; channel < format.channels; channel++) {
        (channels[channel] as Float32Array)[frame] = read(view, base + channel * bytesPerSample);
      }
    }
    yield channels;
    if (got < wanted) return;
  }
}
