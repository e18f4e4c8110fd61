import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runFfmpeg } from './ffmpeg.ts';

/** Test-only: small encoded files made by the bundled FFmpeg from a 500 Hz tone at half scale. */
export type EncodedFixture = 'm4a' | 'm4a-index-last' | 'aac' | 'opus' | 'webm';

const LIMITS = { timeoutMs: 30_000, maxMemoryBytes: 1024 * 1024 * 1024 };

const ENCODINGS: Record<EncodedFixture, { extension: string; args: string[] }> = {
  // The service's own `convert` to aac: AAC 192 kb/s in MP4, index first.
  m4a: { extension: 'm4a', args: ['-c:a', 'aac', '-b:a', '192k', '-movflags', '+faststart'] },
  // As many encoders write it: the index after the audio.
  'm4a-index-last': { extension: 'm4a', args: ['-c:a', 'aac', '-b:a', '128k'] },
  aac: { extension: 'aac', args: ['-c:a', 'aac', '-b:a', '128k', '-f', 'adts'] },
  opus: { extension: 'opus', args: ['-c:a', 'libopus', '-b:a', '64k', '-f', 'ogg'] },
  webm: { extension: 'webm', args: ['-c:a', 'libopus', '-b:a', '64k', '-f', 'webm'] },
};

/** Encodes `seconds` of a stereo tone with peaks at ±0.5 into `dir`; answers the file's bytes. */
export async function encodedTone(dir: string, fixture: EncodedFixture, seconds: number): Promise<Buffer> {
  const { extension, args } = ENCODINGS[fixture];
  const path = join(dir, `${fixture}.${extension}`);
  await runFfmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=500:sample_rate=44100:duration=${seconds}`,
      // The tone is at 1/8 of full scale; the same samples in both channels (the -ac upmix lowers them).
      '-af',
      'volume=4,pan=stereo|c0=c0|c1=c0',
      ...args,
      '-y',
      path,
    ],
    LIMITS,
  );
  return readFile(path);
}
