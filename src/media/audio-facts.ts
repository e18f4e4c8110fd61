import type { IAudioMetadata } from 'music-metadata';
import type { ITokenizer } from 'strtok3';
import { lazyImport } from '../shared/lazy-module.ts';
import type { AudioFailureReason } from './audio-errors.ts';
import { type AudioSource, type AudioSourceHints, isReadError, openAudioSource } from './audio-source.ts';

export type AudioFacts = {
  durationSeconds: number;
  sampleRate: number;
  channels: number;
  /** Bits per sample of lossless audio; null for lossy codecs. */
  bitsPerSample: number | null;
  /** Bits per second: the stream's own figure, else estimated from the size and duration; null if unknown. */
  bitrate: number | null;
  /** E.g. `PCM`, `FLAC`, `MPEG 1 Layer 3`, `AAC`. */
  codec: string;
  /** E.g. `WAVE`, `FLAC`, `MPEG`, `M4A/isom`, `Ogg`. */
  container: string;
  lossless: boolean;
};

export type AudioFactsResult =
  | { ok: true; facts: AudioFacts }
  | { ok: false; reason: AudioFailureReason; message: string };

const musicMetadata = lazyImport(() => import('music-metadata'));

const UNRECOGNISED = new Set(['CouldNotDetermineFileTypeError', 'UnsupportedFileTypeError']);

function factsFrom(metadata: IAudioMetadata, size: number | undefined): AudioFactsResult {
  const { format } = metadata;
  const { duration, sampleRate, numberOfChannels } = format;
  if (format.hasAudio === false || !duration || !sampleRate || !numberOfChannels) {
    return {
      ok: false,
      reason: 'no_audio',
      message: 'No audio stream with a duration and sample rate was found',
    };
  }
  const estimated = size && duration > 0 ? Math.round((size * 8) / duration) : undefined;
  return {
    ok: true,
    facts: {
      durationSeconds: duration,
      sampleRate,
      channels: numberOfChannels,
      bitsPerSample: format.bitsPerSample ?? null,
      bitrate: format.bitrate ? Math.round(format.bitrate) : (estimated ?? null),
      codec: format.codec ?? 'unknown',
      container: format.container ?? 'unknown',
      lossless: format.lossless ?? false,
    },
  };
}

/**
 * Duration, sample rate, channels, codec, container and bitrate of an audio file (any format music-metadata
 * reads: WAV, AIFF, FLAC, MP3, AAC/M4A, Ogg Vorbis/Opus, WebM…). MP3 files are scanned to the end for an exact
 * duration. Never throws for bad input: it answers a failure with a reason.
 */
export async function readAudioFacts(
  source: AudioSource,
  hints: AudioSourceHints = {},
): Promise<AudioFactsResult> {
  let tokenizer: ITokenizer | undefined;
  try {
    tokenizer = await openAudioSource(source, hints);
    const { parseFromTokenizer } = await musicMetadata();
    const metadata = await parseFromTokenizer(tokenizer, { duration: true, skipCovers: true });
    return factsFrom(metadata, tokenizer.fileInfo.size ?? hints.size);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof Error && UNRECOGNISED.has(error.name)) {
      return { ok: false, reason: 'unsupported_format', message };
    }
    if (isReadError(error)) return { ok: false, reason: 'unreadable', message };
    return { ok: false, reason: 'undecodable', message };
  } finally {
    await tokenizer?.close().catch(() => {});
  }
}
