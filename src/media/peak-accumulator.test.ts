import { describe, expect, it } from 'vitest';
import { PeakAccumulator } from './peak-accumulator.ts';

function ramp(frames: number, from: number, to: number): Float32Array {
  return Float32Array.from({ length: frames }, (_, i) => from + ((to - from) * i) / Math.max(1, frames - 1));
}

describe('PeakAccumulator', () => {
  it('gives one bucket per frame for audio shorter than the bucket count', () => {
    const peaks = new PeakAccumulator(10);
    peaks.add([Float32Array.from([0.5, -0.25, 0])], 3);
    expect(peaks.result()).toEqual({ min: [0.5, -0.25, 0], max: [0.5, -0.25, 0] });
    expect(peaks.frames).toBe(3);
  });

  it('merges channels into one min and max per bucket', () => {
    const peaks = new PeakAccumulator(2);
    peaks.add([Float32Array.from([0.1, 0.2, 0.3, 0.4]), Float32Array.from([-0.5, 0.9, -0.1, -0.2])], 4);
    expect(peaks.result()).toEqual({ min: [-0.5, -0.2], max: [0.9, 0.4] });
  });

  it('gives exactly the requested buckets of equal duration for long input, whatever the chunking', () => {
    const frames = 1_000_003;
    const samples = ramp(frames, -1, 1);
    const whole = new PeakAccumulator(100);
    whole.add([samples], frames);
    const chunked = new PeakAccumulator(100);
    for (let offset = 0; offset < frames; offset += 4093) {
      const piece = samples.subarray(offset, Math.min(frames, offset + 4093));
      chunked.add([piece], piece.length);
    }
    const a = whole.result();
    expect(chunked.result()).toEqual(a);
    expect(a.min).toHaveLength(100);
    expect(a.min[0]).toBe(-1);
    expect(a.max[99]).toBe(1);
    // On a ramp each bucket spans 2/100 of the range; edges may be off by at most 1/8 of a bucket.
    for (let j = 0; j < 100; j++) {
      expect(Math.abs((a.min[j] as number) - (-1 + j * 0.02))).toBeLessThanOrEqual(0.02 / 8 + 1e-4);
      expect(Math.abs((a.max[j] as number) - (-1 + (j + 1) * 0.02))).toBeLessThanOrEqual(0.02 / 8 + 1e-4);
    }
  });

  it('clamps to -1..1, rounds to 4 decimals and draws NaN as silence', () => {
    const peaks = new PeakAccumulator(3);
    peaks.add([Float32Array.from([1.7, -3, Number.NaN]), Float32Array.from([0.123456, 0.5, Number.NaN])], 3);
    expect(peaks.result()).toEqual({ min: [0.1235, -1, 0], max: [1, 0.5, 0] });
  });

  it('is empty without input and refuses a bad bucket count', () => {
    expect(new PeakAccumulator(5).result()).toEqual({ min: [], max: [] });
    expect(() => new PeakAccumulator(0)).toThrow(RangeError);
    expect(() => new PeakAccumulator(1.5)).toThrow(RangeError);
  });
});
