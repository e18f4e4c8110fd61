import type { ITokenizer } from 'strtok3';
import { lazyImport } from '../shared/lazy-module.ts';
import type { DecodableFormat } from './audio-format.ts';
import { remainingChunks } from './audio-source.ts';
import { decodeWavSamples, readWavHeader } from './wav-decoder.ts';

const flacDecoder = lazyImport(() => import('@wasm-audio-decoders/flac'));
const mpegDecoder = lazyImport(() => import('mpg123-decoder'));

/** Decoded samples: one Float32Array per channel, values in -1..1. */
export type PcmChunk = {
  channelData: Float32Array[];
  frames: number;
  sampleRate: number;
  /** Frames the decoder could not decode in this stretch of input (they are skipped). */
  errors: number;
};

async function* wavChunks(tokenizer: ITokenizer): AsyncGenerator<PcmChunk> {
  const format = await readWavHeader(tokenizer);
  for await (const channelData of decodeWavSamples(tokenizer, format)) {
    yield { channelData, frames: channelData[0]?.length ?? 0, sampleRate: format.sampleRate, errors: 0 };
  }
}

async function* flacChunks(tokenizer: ITokenizer): AsyncGenerator<PcmChunk> {
  const { FLACDecoder } = await flacDecoder();
  const decoder = new FLACDecoder();
  await decoder.ready;
  try {
    for await (const input of remainingChunks(tokenizer)) {
      const out = await decoder.decode(input);
      yield { ...out, frames: out.samplesDecoded, errors: out.errors.length };
    }
    const rest = await decoder.flush();
    yield { ...rest, frames: rest.samplesDecoded, errors: rest.errors.length };
  } finally {
    decoder.free();
  }
}

async function* mp3Chunks(tokenizer: ITokenizer): AsyncGenerator<PcmChunk> {
  const { MPEGDecoder } = await mpegDecoder();
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    for await (const input of remainingChunks(tokenizer)) {
      const out = decoder.decode(input);
      yield { ...out, frames: out.samplesDecoded, errors: out.errors.length };
    }
  } finally {
    decoder.free();
  }
}

/**
 * Streams decoded audio from the tokenizer (positioned at the start of the audio, see detectDecodableFormat),
 * reading 64 KiB of input at a time, so memory stays bounded for long files. Pure JS/WASM decoders: nothing
 * native to build. Chunks may hold zero frames.
 */
export function decodePcm(tokenizer: ITokenizer, format: DecodableFormat): AsyncGenerator<PcmChunk> {
  switch (format) {
    case 'wav':
      return wavChunks(tokenizer);
    case 'flac':
      return flacChunks(tokenizer);
    case 'mp3':
      return mp3Chunks(tokenizer);
  }
}
