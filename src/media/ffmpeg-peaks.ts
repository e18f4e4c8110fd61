import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ITokenizer } from 'strtok3';
import { lazyImport } from '../shared/lazy-module.ts';
import { AudioDecodeError } from './audio-errors.ts';
import { remainingChunks } from './audio-source.ts';
import { type FfmpegLimits, ffmpegCommand } from './ffmpeg.ts';
import { PeakAccumulator } from './peak-accumulator.ts';

const musicMetadata = lazyImport(() => import('music-metadata'));

/** Formats whose waveform FFmpeg decodes (AAC in MP4/M4A or ADTS, Opus or Vorbis in Ogg or WebM). */
export type FfmpegFormat = 'mp4' | 'aac' | 'ogg' | 'webm';

/** The FFmpeg a waveform process may run, with its limits. */
export type FfmpegDecoding = { path: string; limits: FfmpegLimits };

/** Each format is read by its own demuxer only: FFmpeg never guesses among all it knows from untrusted bytes. */
const DEMUXERS: Record<FfmpegFormat, string> = { mp4: 'mov', aac: 'aac', ogg: 'ogg', webm: 'matroska' };
const FALLBACK = { sampleRate: 48_000, channels: 2 };
const MAX_CHANNELS = 8;
const BYTES_PER_SAMPLE = 4;

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, end));

/** Names the FFmpeg-decoded format the next bytes start, or undefined; consumes nothing. */
export async function detectFfmpegFormat(tokenizer: ITokenizer): Promise<FfmpegFormat | undefined> {
  const head = new Uint8Array(8);
  const read = await tokenizer.peekBuffer(head, { mayBeLess: true });
  if (read < 4) return undefined;
  if (read >= 8 && ascii(head, 4, 8) === 'ftyp') return 'mp4';
  if (ascii(head, 0, 4) === 'OggS') return 'ogg';
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'webm';
  // ADTS: a 12-bit sync word, then layer 0 (MPEG audio frames, layers I-III, are the MP3 path's).
  if (head[0] === 0xff && ((head[1] ?? 0) & 0xf6) === 0xf0) return 'aac';
  return undefined;
}

export type FfmpegPeaks = {
  sampleRate: number;
  frames: number;
  min: number[];
  max: number[];
  decodeErrors: number;
};

/**
 * Peaks of the rest of the tokenizer's bytes, decoded by FFmpeg to 32-bit float PCM. The bytes are first
 * written to a private temporary file: an MP4 may keep its index at the end, which a pipe cannot seek to.
 */
export async function ffmpegPeaks(
  tokenizer: ITokenizer,
  format: FfmpegFormat,
  buckets: number,
  decoding: FfmpegDecoding,
): Promise<FfmpegPeaks> {
  const directory = await mkdtemp(join(tmpdir(), 'tmw-peaks-'));
  try {
    const input = join(directory, 'input');
    await pipeline(remainingChunks(tokenizer), createWriteStream(input, { mode: 0o600 }));
    const { sampleRate, channels } = await streamShape(input);
    return await decode(input, format, { sampleRate, channels }, buckets, decoding);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The sample rate and channels to decode at: the file's own where its headers tell them. */
async function streamShape(input: string): Promise<{ sampleRate: number; channels: number }> {
  try {
    const { parseFile } = await musicMetadata();
    const { format } = await parseFile(input, { duration: false, skipCovers: true });
    const sampleRate = format.sampleRate;
    const channels = format.numberOfChannels;
    return {
      sampleRate:
        sampleRate && sampleRate >= 1000 && sampleRate <= 384_000 ? sampleRate : FALLBACK.sampleRate,
      channels: channels && channels >= 1 && channels <= MAX_CHANNELS ? channels : FALLBACK.channels,
    };
  } catch {
    // FFmpeg may still read what music-metadata cannot; the shape it is asked for is then the fallback.
    return FALLBACK;
  }
}

function decode(
  input: string,
  format: FfmpegFormat,
  shape: { sampleRate: number; channels: number },
  buckets: number,
  { path, limits }: FfmpegDecoding,
): Promise<FfmpegPeaks> {
  const { sampleRate, channels } = shape;
  const command = ffmpegCommand(
    [
      '-nostats',
      '-f',
      DEMUXERS[format],
      '-i',
      input,
      '-map',
      '0:a:0',
      '-vn',
      '-ac',
      String(channels),
      '-ar',
      String(sampleRate),
      '-f',
      'f32le',
      'pipe:1',
    ],
    limits,
    { binary: path },
  );
  const accumulator = new PeakAccumulator(buckets);
  const frameBytes = channels * BYTES_PER_SAMPLE;
  let carry = Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limits.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const frames = Math.floor(bytes.length / frameBytes);
      if (frames > 0) {
        const channelData = Array.from({ length: channels }, () => new Float32Array(frames));
        for (let frame = 0; frame < frames; frame++) {
          for (let channel = 0; channel < channels; channel++) {
            channelData[channel]![frame] = bytes.readFloatLE((frame * channels + channel) * BYTES_PER_SAMPLE);
          }
        }
        accumulator.add(channelData, frames);
      }
      carry = Buffer.from(bytes.subarray(frames * frameBytes));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(new AudioDecodeError('undecodable', 'Decoding the audio took too long'));
      if (accumulator.frames === 0) {
        return reject(
          new AudioDecodeError(
            'undecodable',
            `FFmpeg could not decode the ${format} audio (exit code ${code})`,
          ),
        );
      }
      const { min, max } = accumulator.result();
      // Audio that ends in damage still has its decoded part drawn, with the damage counted.
      resolve({ sampleRate, frames: accumulator.frames, min, max, decodeErrors: code === 0 ? 0 : 1 });
    });
  });
}
