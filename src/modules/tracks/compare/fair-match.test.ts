import { describe, expect, it } from 'vitest';
import type { StoredPeaks } from '../../../db/schema/index.ts';
import { alignmentOf, loudnessMatch } from './fair-match.ts';

describe('loudnessMatch', () => {
  it('lowers the louder version to the quieter one and never raises anything', () => {
    for (const [la, lb] of [
      [-9.6, -13.8],
      [-20, -8.25],
      [-14, -14],
      [-0.5, -31.2],
    ] as const) {
      const match = loudnessMatch({ versionId: 1, integratedLufs: la }, { versionId: 2, integratedLufs: lb });
      const [ga, gb] = match.gains as [number, number];
      expect(ga).toBeLessThanOrEqual(0);
      expect(gb).toBeLessThanOrEqual(0);
      expect(Math.min(Math.abs(ga), Math.abs(gb))).toBe(0);
      expect(Math.abs(la + ga - (lb + gb))).toBeLessThanOrEqual(0.005);
      expect(match.referenceLufs).toBe(Math.min(la, lb));
      expect(match.referenceVersionId).toBe(lb < la ? 2 : 1);
    }
  });

  it('matches nothing when a side has no integrated loudness', () => {
    expect(
      loudnessMatch({ versionId: 1, integratedLufs: null }, { versionId: 2, integratedLufs: -14 }),
    ).toEqual({ gains: [null, null], referenceVersionId: null, referenceLufs: null });
  });
});

describe('alignmentOf', () => {
  const peaks = (levels: number[]): StoredPeaks => ({
    format: 'f32',
    sampleRate: 8000,
    durationSeconds: levels.length / 10,
    bucketCount: levels.length,
    min: levels.map((v) => -v),
    max: levels,
  });
  const levels = Array.from(
    { length: 200 },
    (_, i) => 0.1 + 0.8 * Math.abs(Math.sin(i * 1.7) * Math.cos(i * 0.31)),
  );

  it('waits for a waveform still being computed and gives up on a failed or flat one', () => {
    const ready = { peaksStatus: 'ready', peaks: peaks(levels) };
    expect(alignmentOf(ready, { peaksStatus: 'pending', peaks: null })).toMatchObject({
      alignment: 'pending',
      offsetSeconds: null,
      confidence: null,
    });
    expect(alignmentOf(ready, { peaksStatus: 'failed', peaks: null }).alignment).toBe('unavailable');
    expect(alignmentOf(ready, { peaksStatus: 'ready', peaks: peaks(levels.map(() => 0.5)) }).alignment).toBe(
      'unavailable',
    );
  });

  it('answers the offset of a shifted waveform as aligned', () => {
    const shifted = [...Array.from({ length: 20 }, () => 0), ...levels];
    const found = alignmentOf(
      { peaksStatus: 'ready', peaks: peaks(levels) },
      { peaksStatus: 'ready', peaks: peaks(shifted) },
    );
    expect(found.alignment).toBe('aligned');
    expect(Math.abs((found.offsetSeconds as number) - 2)).toBeLessThanOrEqual(
      found.resolutionSeconds as number,
    );
  });
});
