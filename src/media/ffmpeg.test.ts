import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodePcm,
  FfmpegError,
  ffmpegCommand,
  lastJsonObject,
  lastProgressTime,
  measureLoudness,
  parseEbur128Summary,
  prlimitPath,
  runFfmpeg,
} from './ffmpeg.ts';
import { encodeWav, sine } from './test-audio.ts';

const LIMITS = { timeoutMs: 30_000, maxMemoryBytes: 1024 * 1024 * 1024 };
let dir = '';
let wav = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ffmpeg-test-'));
  wav = join(dir, 'tone.wav');
  await writeFile(
    wav,
    encodeWav(
      sine({ sampleRate: 48_000, seconds: 3, frequency: 1000, amplitude: 10 ** (-20 / 20), channels: 2 }),
      48_000,
      'pcm16',
    ),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('runFfmpeg', () => {
  it('decodes to float PCM of the asked rate and channel count', async () => {
    const pcm = await decodePcm(wav, { sampleRate: 8000, channels: 2 }, LIMITS);
    expect(pcm.length).toBe(3 * 8000 * 2);
    const peak = pcm.reduce((max, v) => Math.max(max, Math.abs(v)), 0);
    expect(peak).toBeCloseTo(0.1, 2);
  });

  it('measures EBU R128 loudness with true peak', async () => {
    const loudness = await measureLoudness(wav, LIMITS);
    expect(loudness.integratedLufs).toBeCloseTo(-20, 0);
    expect(loudness.truePeakDbtp).toBeCloseTo(-20, 0);
  });

  it('rejects an unreadable input with the reason and the log, without throwing elsewhere', async () => {
    const bad = join(dir, 'bad.wav');
    await writeFile(bad, Buffer.from('RIFF not really a wave file'));
    const error = await decodePcm(bad, { sampleRate: 8000, channels: 1 }, LIMITS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FfmpegError);
    expect((error as FfmpegError).reason).toBe('failed');
    expect((error as FfmpegError).message).toMatch(/Invalid data/);
    expect((error as FfmpegError).stderr).toContain('bad.wav');
  });

  it('kills a process at its time limit', async () => {
    const endless = ['-f', 'lavfi', '-i', 'anoisesrc=d=100000', '-f', 'null', '-'];
    const error = await runFfmpeg(endless, { ...LIMITS, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FfmpegError);
    expect((error as FfmpegError).reason).toBe('timeout');
  });

  it('kills a process when its signal aborts', async () => {
    const controller = new AbortController();
    const endless = ['-f', 'lavfi', '-i', 'anoisesrc=d=100000', '-f', 'null', '-'];
    const running = runFfmpeg(endless, LIMITS, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    const error = await running;
    expect((error as FfmpegError).reason).toBe('aborted');
  });

  it('runs under prlimit --as when present, and without it too', async () => {
    const limited = ffmpegCommand(['-version'], LIMITS);
    if (prlimitPath()) expect(limited.args).toContain(`--as=${LIMITS.maxMemoryBytes}`);
    const plain = ffmpegCommand(['-version'], LIMITS, { usePrlimit: false });
    expect(plain.args).not.toContain(`--as=${LIMITS.maxMemoryBytes}`);
    expect(plain.args).toEqual(expect.arrayContaining(['-max_alloc', String(LIMITS.maxMemoryBytes)]));
    const run = await runFfmpeg(['-i', wav, '-f', 'null', '-'], LIMITS, { usePrlimit: false });
    expect(run.stderr).toContain('pcm_s16le');
  });

  it.runIf(prlimitPath() !== null)('fails cleanly when the memory limit is too small', async () => {
    const error = await runFfmpeg(['-i', wav, '-f', 'null', '-'], {
      ...LIMITS,
      maxMemoryBytes: 8 * 1024 * 1024,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FfmpegError);
    expect((error as FfmpegError).reason).toBe('failed');
  });
});

describe('log parsing', () => {
  it('reads the ebur128 summary, silence as null', () => {
    const log = `[Parsed_ebur128_0 @ 0x1] Summary:

  Integrated loudness:
    I:         -16.3 LUFS
    Threshold: -26.5 LUFS

  Loudness range:
    LRA:         4.2 LU
    Threshold: -36.4 LUFS
    LRA low:   -19.0 LUFS
    LRA high:  -14.8 LUFS

  True peak:
    Peak:       -0.7 dBFS`;
    expect(parseEbur128Summary(log)).toEqual({
      integratedLufs: -16.3,
      loudnessRangeLu: 4.2,
      truePeakDbtp: -0.7,
    });
    expect(
      parseEbur128Summary('Summary:\n I: -inf LUFS\n LRA: 0.0 LU\n True peak:\n Peak: -inf dBFS'),
    ).toEqual({
      integratedLufs: null,
      loudnessRangeLu: 0,
      truePeakDbtp: null,
    });
    expect(() => parseEbur128Summary('nothing here')).toThrow(/no EBU R128 summary/);
  });

  it('reads the last JSON report and the last progress time', () => {
    expect(lastJsonObject('x {"a": "1"}\n[Parsed_loudnorm_0 @ 0x2]\n{\n "input_i" : "-23.00"\n}\n')).toEqual({
      input_i: '-23.00',
    });
    expect(lastProgressTime('size=N/A time=00:00:01.50 bitrate\rsize=N/A time=00:01:02.25 bitrate')).toBe(
      62.25,
    );
    expect(lastProgressTime('no progress')).toBeNull();
  });
});
