const round = (value: number) => Math.round(Math.min(1, Math.max(-1, value)) * 10_000) / 10_000;

/**
 * Reduces a stream of samples of unknown length to waveform peaks in fixed memory. Samples go into fine buckets
 * (each the min and max across all channels of a run of frames); when the fine buckets run out, neighbours are
 * merged pairwise and each bucket covers twice as many frames. With 8 to 16 fine buckets per requested bucket, the
 * final regrouping misplaces a bucket edge by at most 1/8 of a bucket.
 */
export class PeakAccumulator {
  readonly #target: number;
  readonly #capacity: number;
  readonly #min: Float32Array;
  readonly #max: Float32Array;
  #count = 0;
  #framesPerBucket = 1;
  #framesInLast = 0;
  #frames = 0;

  constructor(targetBuckets: number) {
    if (!Number.isInteger(targetBuckets) || targetBuckets < 1)
      throw new RangeError('targetBuckets must be >= 1');
    this.#target = targetBuckets;
    this.#capacity = targetBuckets * 16;
    this.#min = new Float32Array(this.#capacity);
    this.#max = new Float32Array(this.#capacity);
  }

  /** Frames seen so far. */
  get frames(): number {
    return this.#frames;
  }

  #startBucket(): void {
    if (this.#count === this.#capacity) {
      for (let i = 0; i < this.#capacity / 2; i++) {
        this.#min[i] = Math.min(this.#min[2 * i] as number, this.#min[2 * i + 1] as number);
        this.#max[i] = Math.max(this.#max[2 * i] as number, this.#max[2 * i + 1] as number);
      }
      this.#count = this.#capacity / 2;
      this.#framesPerBucket *= 2;
    }
    this.#min[this.#count] = Number.POSITIVE_INFINITY;
    this.#max[this.#count] = Number.NEGATIVE_INFINITY;
    this.#count++;
    this.#framesInLast = 0;
  }

  /** Adds `frames` frames from per-channel sample arrays (values nominally in -1..1). */
  add(channelData: readonly Float32Array[], frames: number): void {
    let offset = 0;
    while (offset < frames) {
      if (this.#count === 0 || this.#framesInLast === this.#framesPerBucket) this.#startBucket();
      const take = Math.min(this.#framesPerBucket - this.#framesInLast, frames - offset);
      const bucket = this.#count - 1;
      let low = this.#min[bucket] as number;
      let high = this.#max[bucket] as number;
      for (const samples of channelData) {
        for (let i = offset; i < offset + take; i++) {
          const value = samples[i] as number;
          if (value < low) low = value;
          if (value > high) high = value;
        }
      }
      this.#min[bucket] = low;
      this.#max[bucket] = high;
      this.#framesInLast += take;
      this.#frames += take;
      offset += take;
    }
  }

  /**
   * The peaks: `targetBuckets` buckets of (nearly) equal duration, or one per frame when there were fewer frames.
   * Values are clamped to -1..1 and rounded to 4 decimals.
   */
  result(): { min: number[]; max: number[] } {
    const fine = this.#count;
    const buckets = Math.min(this.#target, fine);
    const min: number[] = new Array(buckets);
    const max: number[] = new Array(buckets);
    for (let j = 0; j < buckets; j++) {
      const from = Math.floor((j * fine) / buckets);
      const to = Math.floor(((j + 1) * fine) / buckets);
      let low = Number.POSITIVE_INFINITY;
      let high = Number.NEGATIVE_INFINITY;
      for (let i = from; i < to; i++) {
        low = Math.min(low, this.#min[i] as number);
        high = Math.max(high, this.#max[i] as number);
      }
      // A bucket of NaN samples only has no extremes: draw it as silence.
      min[j] = Number.isFinite(low) ? round(low) : 0;
      max[j] = Number.isFinite(high) ? round(high) : 0;
    }
    return { min, max };
  }
}
