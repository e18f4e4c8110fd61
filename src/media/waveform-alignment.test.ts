import { describe, expect, it } from 'vitest';
import { alignWaveforms, type Waveform } from './waveform-alignment.ts';

/** A waveform of `seconds` at `buckets` buckets whose loudness follows `level(t)`. */
function waveform(seconds: number, buckets: number, level: (t: number) => number): Waveform {
  const min: number[] = [];
  const max: number[] = [];
  for (let i = 0; i < buckets; i++) {
    const v = level(((i + 0.5) * seconds) / buckets);
    min.push(-v);
    max.push(v);
  }
  return { durationSeconds: seconds, min, max };
}

/** A song-like envelope that never repeats: a loudness drawn at random for each `segment` seconds. */
function songOf(segment: number, seed = 7) {
  const levels: number[] = [];
  let state = seed;
  const levelAt = (index: number) => {
    while (levels.length <= index) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      levels.push(0.1 + 0.8 * (state / 2_147_483_648));
    }
    return levels[index] as number;
  };
  return (t: number) => (t < 0 ? 0 : levelAt(Math.floor(t / segment)));
}
const song = songOf(0.5);

describe('alignWaveforms', () => {
  it('finds content that starts 3 s later in a longer version, with high confidence', () => {
    const before = waveform(40, 1000, song);
    const after = waveform(43, 1000, (t) => (t < 3 ? 0.01 : song(t - 3)));
    const found = alignWaveforms(before, after)!;
    expect(Math.abs(found.offsetSeconds - 3)).toBeLessThanOrEqual(found.resolutionSeconds);
    expect(found.confidence).toBeGreaterThan(0.9);
  });

  it('finds content that starts earlier in a shorter version (a negative offset)', () => {
    const before = waveform(40, 1000, song);
    const after = waveform(35, 1000, (t) => song(t + 5));
    const found = alignWaveforms(before, after)!;
    expect(Math.abs(found.offsetSeconds + 5)).toBeLessThanOrEqual(found.resolutionSeconds);
    expect(found.confidence).toBeGreaterThan(0.9);
  });

  it('says it is unsure about unrelated audio', () => {
    const before = waveform(40, 1000, song);
    const other = waveform(40, 1000, songOf(0.5, 99));
    expect(alignWaveforms(before, other)!.confidence).toBeLessThan(0.6);
  });

  it('answers nothing for an empty or flat waveform', () => {
    const before = waveform(40, 1000, song);
    expect(alignWaveforms(before, { durationSeconds: 0, min: [], max: [] })).toBeUndefined();
    expect(
      alignWaveforms(
        before,
        waveform(40, 1000, () => 0.5),
      ),
    ).toBeUndefined();
  });

  it('bounds its work for huge inputs', () => {
    const slow = songOf(5);
    const before = waveform(3600, 100_000, slow);
    const after = waveform(3610, 100_000, (t) => slow(t - 10));
    const started = performance.now();
    const found = alignWaveforms(before, after, { maxOffsetSeconds: 3600 })!;
    expect(Math.abs(found.offsetSeconds - 10)).toBeLessThanOrEqual(found.resolutionSeconds);
    // Generous: the point is that it does not grow with the bucket count.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
