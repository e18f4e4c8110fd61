import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { computePeaks } from './peaks.ts';
import { computePeaksIsolated, PEAKS_LIMITS } from './peaks-runner.ts';
import { encodeWav, sine } from './test-audio.ts';

const wav = encodeWav(
  sine({ sampleRate: 8_000, seconds: 2, frequency: 440, amplitude: 0.5, channels: 2 }),
  8_000,
  'pcm16',
);

describe('computePeaksIsolated', () => {
  it('draws in a child process the same waveform as in this one', async () => {
    const isolated = await computePeaksIsolated(Readable.from([wav]), { buckets: 50 });
    expect(isolated).toEqual(await computePeaks(wav, { buckets: 50 }));
    expect(isolated.ok).toBe(true);
  });

  it('answers bad input with the failure computePeaks gives', async () => {
    const isolated = await computePeaksIsolated(Readable.from([Buffer.from('not audio at all')]));
    expect(isolated).toMatchObject({ ok: false, reason: 'unsupported_format' });
  });

  it('ends a process at its time limit with a failure result, not an error', async () => {
    // A WAV of unknown length: the decoder reads until the input ends, which it never does.
    const header = encodeWav([new Float32Array(0)], 8_000, 'pcm16', { streamed: true });
    const endless = Readable.from(
      (function* () {
        yield header;
        for (;;) yield Buffer.alloc(64 * 1024);
      })(),
    );
    const result = await computePeaksIsolated(endless, {}, { ...PEAKS_LIMITS, timeoutMs: 1_500 });
    expect(result).toEqual({
      ok: false,
      reason: 'undecodable',
      message: 'Drawing the waveform stopped at its time limit',
    });
  });
});
