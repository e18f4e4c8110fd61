/** A waveform as stored: per bucket of equal duration, the lowest and highest sample. */
export type Waveform = { durationSeconds: number; min: readonly number[]; max: readonly number[] };

/**
 * Where the content of one waveform lies in another: a moment `t` of the first is at `t + offsetSeconds` of
 * the second. `confidence` is the correlation of the two envelopes at that offset (0 to 1).
 */
export type Alignment = { offsetSeconds: number; confidence: number; resolutionSeconds: number };

/** Below this confidence an alignment is a guess: treat the two as unaligned (times unmapped). */
export const ALIGNMENT_MIN_CONFIDENCE = 0.6;

/** Bins the envelopes are compared in at most: bounds the work to about MAX_BINS² / 2 multiply-adds. */
const MAX_BINS = 2000;
/** The part of the shorter waveform the two must overlap in at an offset for it to count. */
const MIN_OVERLAP = 0.5;

export type AlignmentOptions = {
  /** The largest shift looked for, either way (default 60 s). */
  maxOffsetSeconds?: number;
};

/**
 * Aligns two waveforms by cross-correlating their loudness envelopes (the peak-to-peak span of each bucket),
 * both resampled to one step: the step of the coarser waveform, or coarser still so neither has more than
 * MAX_BINS bins. Undefined when either has no duration or no buckets. The cost is bounded whatever the input.
 */
export function alignWaveforms(
  from: Waveform,
  to: Waveform,
  options: AlignmentOptions = {},
): Alignment | undefined {
  if (!isUsable(from) || !isUsable(to)) return undefined;
  const longest = Math.max(from.durationSeconds, to.durationSeconds);
  const step = Math.max(bucketSeconds(from), bucketSeconds(to), longest / MAX_BINS);
  const a = standardised(smoothed(envelope(from, step)));
  const b = standardised(smoothed(envelope(to, step)));
  if (!a || !b) return undefined;
  const maxLag = Math.min(Math.ceil((options.maxOffsetSeconds ?? 60) / step), a.length + b.length);
  const minOverlap = Math.max(2, Math.ceil(Math.min(a.length, b.length) * MIN_OVERLAP));
  let best = { lag: 0, r: -Infinity };
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    const r = correlationAt(a, b, lag, minOverlap);
    if (r !== undefined && (r > best.r || (r === best.r && Math.abs(lag) < Math.abs(best.lag))))
      best = { lag, r };
  }
  if (best.r === -Infinity) return undefined;
  const shift =
    best.lag +
    subBin(
      correlationAt(a, b, best.lag - 1, minOverlap),
      best.r,
      correlationAt(a, b, best.lag + 1, minOverlap),
    );
  return {
    offsetSeconds: round(shift * step, 3),
    confidence: round(Math.max(0, Math.min(1, best.r)), 3),
    resolutionSeconds: round(step, 3),
  };
}

function isUsable(w: Waveform): boolean {
  return (
    Number.isFinite(w.durationSeconds) &&
    w.durationSeconds > 0 &&
    w.max.length > 0 &&
    w.min.length === w.max.length
  );
}

const bucketSeconds = (w: Waveform) => w.durationSeconds / w.max.length;

/** The peak-to-peak span per bin of `step` seconds: the largest span of the buckets the bin covers. */
function envelope(w: Waveform, step: number): number[] {
  const per = bucketSeconds(w);
  const bins = Math.max(1, Math.round(w.durationSeconds / step));
  const out = new Array<number>(bins).fill(0);
  for (let i = 0; i < w.max.length; i++) {
    // The small term keeps a bucket that starts exactly on a bin edge in that bin despite rounding.
    const bin = Math.min(bins - 1, Math.floor((i * per) / step + 1e-9));
    const span = (w.max[i] ?? 0) - (w.min[i] ?? 0);
    if (Number.isFinite(span) && span > (out[bin] as number)) out[bin] = span;
  }
  return out;
}

/** A moving average over three bins: a shift of part of a bin then costs little correlation. */
function smoothed(values: number[]): number[] {
  return values.map((v, i) => ((values[i - 1] ?? v) + v + (values[i + 1] ?? v)) / 3);
}

/** Where between the neighbouring lags the peak lies, from a parabola through the three correlations. */
function subBin(before: number | undefined, peak: number, after: number | undefined): number {
  if (before === undefined || after === undefined) return 0;
  const curvature = before - 2 * peak + after;
  return curvature < 0 ? Math.max(-0.5, Math.min(0.5, (before - after) / (2 * curvature))) : 0;
}

/** The values less their mean, over their standard deviation; undefined for a flat envelope. */
function standardised(values: number[]): Float64Array | undefined {
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length;
  if (!(variance > 1e-12)) return undefined;
  const sd = Math.sqrt(variance);
  return Float64Array.from(values, (v) => (v - mean) / sd);
}

/** The Pearson correlation of `a[i]` with `b[i + lag]` over their overlap, when it is long enough. */
function correlationAt(
  a: Float64Array,
  b: Float64Array,
  lag: number,
  minOverlap: number,
): number | undefined {
  const start = Math.max(0, -lag);
  const end = Math.min(a.length, b.length - lag);
  const n = end - start;
  if (n < minOverlap) return undefined;
  let sa = 0;
  let sb = 0;
  for (let i = start; i < end; i++) {
    sa += a[i] as number;
    sb += b[i + lag] as number;
  }
  const ma = sa / n;
  const mb = sb / n;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = start; i < end; i++) {
    const x = (a[i] as number) - ma;
    const y = (b[i + lag] as number) - mb;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return da > 0 && db > 0 ? num / Math.sqrt(da * db) : undefined;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
