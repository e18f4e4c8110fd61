import type { ITokenizer } from 'strtok3';
import { AudioDecodeError, type AudioFailureReason } from './audio-errors.ts';
import { type DecodableFormat, detectDecodableFormat } from './audio-format.ts';
import { type AudioSource, type AudioSourceHints, isReadError, openAudioSource } from './audio-source.ts';
import { detectFfmpegFormat, type FfmpegDecoding, type FfmpegFormat, ffmpegPeaks } from './ffmpeg-peaks.ts';
import { decodePcm } from './pcm-stream.ts';
import { PeakAccumulator } from './peak-accumulator.ts';

export type WaveformPeaks = {
  format: DecodableFormat | FfmpegFormat;
  sampleRate: number;
  /** Frames decoded (samples per channel). */
  frames: number;
  durationSeconds: number;
  /** Buckets of equal duration: the requested number, or one per frame for shorter audio. */
  bucketCount: number;
  /** Per bucket, the lowest sample of any channel (-1..1). */
  min: number[];
  /** Per bucket, the highest sample of any channel (-1..1). */
  max: number[];
  /** Stretches of input the decoder skipped as damaged. */
  decodeErrors: number;
};

export type PeaksResult =
  | { ok: true; peaks: WaveformPeaks }
  | { ok: false; reason: AudioFailureReason; message: string };

export type PeaksOptions = {
  /** Number of buckets, 1 to 100 000; 1000 by default. */
  buckets?: number;
  hints?: AudioSourceHints;
  /** With it, AAC (MP4/M4A, ADTS), Opus and Vorbis (Ogg, WebM) are decoded by FFmpeg; without, they are refused. */
  ffmpeg?: FfmpegDecoding;
};

export const DEFAULT_PEAK_BUCKETS = 1000;
const MAX_PEAK_BUCKETS = 100_000;

async function peaksFrom(
  tokenizer: ITokenizer,
  buckets: number,
  ffmpeg: FfmpegDecoding | undefined,
): Promise<WaveformPeaks> {
  const format = await detectDecodableFormat(tokenizer);
  if (!format) {
    const other = ffmpeg ? await detectFfmpegFormat(tokenizer) : undefined;
    if (other && ffmpeg) {
      const peaks = await ffmpegPeaks(tokenizer, other, buckets, ffmpeg);
      return {
        format: other,
        ...peaks,
        durationSeconds: peaks.frames / peaks.sampleRate,
        bucketCount: peaks.min.length,
      };
    }
    throw new AudioDecodeError(
      'unsupported_format',
      ffmpeg
        ? 'Waveforms can be drawn for WAV, FLAC, MP3, AAC (M4A, MP4, ADTS), Opus and Vorbis (Ogg, WebM) files only'
        : 'Waveforms can be drawn for WAV, FLAC and MP3 files only',
    );
  }
  const accumulator = new PeakAccumulator(buckets);
  let sampleRate = 0;
  let decodeErrors = 0;
  for await (const chunk of decodePcm(tokenizer, format)) {
    decodeErrors += chunk.errors;
    if (chunk.frames === 0) continue;
    sampleRate = chunk.sampleRate;
    accumulator.add(chunk.channelData, chunk.frames);
  }
  if (accumulator.frames === 0 || sampleRate === 0) {
    // An empty WAV is well-formed; a FLAC or MP3 without a single decodable frame is broken.
    throw format === 'wav' && decodeErrors === 0
      ? new AudioDecodeError('no_audio', 'The WAV file holds no audio samples')
      : new AudioDecodeError('undecodable', `No ${format} frame could be decoded`);
  }
  const { min, max } = accumulator.result();
  return {
    format,
    sampleRate,
    frames: accumulator.frames,
    durationSeconds: accumulator.frames / sampleRate,
    bucketCount: min.length,
    min,
    max,
    decodeErrors,
  };
}

/**
 * Waveform peaks of a WAV (PCM 8/16/24/32-bit or float), FLAC or MP3 file: channels merged to one min/max pair per
 * bucket. Decodes as a stream in bounded memory. Never throws for bad input: it answers a failure with a reason.
 */
export async function computePeaks(source: AudioSource, options: PeaksOptions = {}): Promise<PeaksResult> {
  const buckets = options.buckets ?? DEFAULT_PEAK_BUCKETS;
  if (!Number.isInteger(buckets) || buckets < 1 || buckets > MAX_PEAK_BUCKETS) {
    throw new RangeError(`buckets must be an integer from 1 to ${MAX_PEAK_BUCKETS}`);
  }
  let tokenizer: ITokenizer | undefined;
  try {
    tokenizer = await openAudioSource(source, options.hints);
    return { ok: true, peaks: await peaksFrom(tokenizer, buckets, options.ffmpeg) };
  } catch (error) {
    if (error instanceof AudioDecodeError) return { ok: false, reason: error.reason, message: error.message };
    if (isReadError(error)) return { ok: false, reason: 'unreadable', message: (error as Error).message };
    return {
      ok: false,
      reason: 'undecodable',
      message: error instanceof Error ? error.message : String(error),
    };
  } finally {
    await tokenizer?.close().catch(() => {});
  }
}
