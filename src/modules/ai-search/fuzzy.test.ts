import { describe, expect, it } from 'vitest';
import { editDistance } from './fuzzy.ts';

/** The whole optimal-string-alignment matrix, without bands or early exits: what the fast one must equal. */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** A small deterministic generator, so a failure names the same strings on every run. */
function generator(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
}

describe('editDistance', () => {
  it('equals the full matrix up to the limit, and says limit + 1 beyond it', () => {
    const random = generator(7);
    const text = (length: number) => Array.from({ length }, () => 'abc'[random(3)]).join('');
    for (let n = 0; n < 20_000; n++) {
      const a = text(random(14));
      // Half the pairs are near copies (a few edits apart), where the band and early exit matter.
      const b =
        random(2) === 0
          ? text(random(14))
          : [...a].map((c) => (random(4) === 0 ? 'abc'[random(3)]! : c)).join('') + text(random(3));
      const max = random(5);
      expect(editDistance(a, b, max), `${a} / ${b} within ${max}`).toBe(
        Math.min(fullDistance(a, b), max + 1),
      );
    }
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('hosue', 'house', 2)).toBe(1);
    expect(editDistance('tehcno', 'techno', 1)).toBe(1);
  });
});
