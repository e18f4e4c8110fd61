// Three rows of the distance matrix, reused across calls (the parser is synchronous).
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/**
 * The optimal-string-alignment distance (Damerau-Levenshtein without repeated edits of one substring:
 * insertions, deletions, substitutions and swaps of two neighbours), or `max + 1` as soon as it is
 * certain to exceed `max`. Only the diagonal band |i - j| <= max is computed: a cell outside it is
 * already more than `max` edits away, so long near-identical strings cost O(length * max), not O(length²).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  if (rows[0]!.length <= b.length + 1) rows = rows.map(() => new Int32Array(b.length * 2 + 2));
  const beyond = max + 1;
  let [before, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= Math.min(b.length, beyond); j++) previous[j] = Math.min(j, beyond);
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    // The cells just outside the band read as "too far", so stale values of earlier rows never count.
    current[from - 1] = from === 1 ? Math.min(i, beyond) : beyond;
    if (to < b.length) current[to + 1] = beyond;
    let rowMin = current[from - 1]!;
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return beyond;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, beyond);
}

/** How many typos a word of this length may carry: none below 5 letters, where they make other words. */
export function typoBudget(length: number): number {
  if (length < 5) return 0;
  return length < 9 ? 1 : 2;
}
