import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prlimitPath } from '../src/media/ffmpeg.ts';
import { clickTrack, triad } from '../src/media/music-test-audio.ts';
import { encodeWav } from '../src/media/test-audio.ts';
import type { ConvertFormat } from '../src/modules/tracks/music-tools/music-tools.schemas.ts';
import * as ops from '../src/modules/tracks/music-tools/operations.ts';

/**
 * `node --import ./bin/typescript.js bench/music-tools.ts`: the music tools' audio work (what a job runs between fetching the
 * audio and registering its files) on a generated 3-minute stereo 44.1 kHz 16-bit WAV (BENCH_MUSIC_SECONDS
 * to change), printed as seconds of audio processed per second of wall time for each operation.
 */
const RATE = 44_100;
const seconds = Number(process.env.BENCH_MUSIC_SECONDS ?? 180);

function music(): Buffer {
  const clicks = clickTrack({ sampleRate: RATE, seconds, bpm: 120 });
  const chords = ['C', 'A', 'F', 'G'].map((root, i) =>
    triad({ sampleRate: RATE, seconds: 4, root, minor: i === 1 }),
  );
  const left = new Float32Array(clicks.length);
  const right = new Float32Array(clicks.length);
  for (let i = 0; i < clicks.length; i++) {
    const chord = chords[Math.floor(i / (4 * RATE)) % chords.length]!;
    const tone = chord[i % chord.length]! * 0.5;
    left[i] = 0.5 * clicks[i]! + tone;
    right[i] = 0.3 * clicks[i]! + 0.8 * tone;
  }
  return encodeWav([left, right], RATE, 'pcm16');
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'bench-music-tools-'));
  try {
    const input = join(dir, 'input.wav');
    await writeFile(input, music());
    const limits = { timeoutMs: 600_000, maxMemoryBytes: 2 * 1024 * 1024 * 1024 };
    let runs = 0;
    const context = async (): Promise<ops.OperationContext> => {
      const workDir = join(dir, `run-${runs++}`);
      await mkdir(workDir);
      return { input, workDir, limits, signal: new AbortController().signal, sampleRate: RATE };
    };
    const operations: [string, (ctx: ops.OperationContext) => Promise<unknown>][] = [
      ['analyze', ops.analyze],
      ['normalize', ops.normalize],
      ...(['mp3', 'flac', 'wav', 'aac'] as ConvertFormat[]).map(
        (format) =>
          [`convert ${format}`, (ctx: ops.OperationContext) => ops.convert(ctx, format)] as [
            string,
            (ctx: ops.OperationContext) => Promise<unknown>,
          ],
      ),
      ['trim', ops.trim],
      ['split mid-side', (ctx) => ops.splitOffline(ctx, 'mid-side')],
      ['split left-right', (ctx) => ops.splitOffline(ctx, 'left-right')],
    ];
    console.log(
      `music tools on ${seconds} s of stereo 44.1 kHz audio (prlimit ${prlimitPath() ? 'on' : 'absent'}):`,
    );
    console.log('operation           wall s   audio s per wall s');
    for (const [name, run] of operations) {
      const ctx = await context();
      const start = process.hrtime.bigint();
      await run(ctx);
      const wall = Number(process.hrtime.bigint() - start) / 1e9;
      console.log(
        `${name.padEnd(18)} ${wall.toFixed(2).padStart(7)}   ${(seconds / wall).toFixed(1).padStart(8)}x`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
