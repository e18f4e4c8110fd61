import { lazyRequire } from '../shared/lazy-module.ts';

type MusicTempoInstance = { tempo: number | string; beats: number[] };
type MusicTempoClass = new (
  audio: Float32Array | number[],
  params?: Record<string, number>,
) => MusicTempoInstance;
const musicTempo = lazyRequire<MusicTempoClass>('music-tempo');

type MeydaLike = {
  sampleRate: number;
  bufferSize: number;
  windowingFunction: string;
  chromaFilterBank?: unknown;
  extract(feature: 'chroma', signal: Float32Array): number[] | null;
};
const meyda = lazyRequire<MeydaLike>('meyda');

/**
 * The one rate analysis decodes at: low enough that the analysed window stays small (tempo and key need no
 * content above 5.5 kHz), and a whole number of samples per 10 ms step of the tempo tracker.
 */
export const ANALYSIS_SAMPLE_RATE = 11_000;
/** Tempo and key are computed on the first this many seconds of the audio (loudness on all of it). */
export const MAX_ANALYSED_SECONDS = 600;
/** The tracker's 46 ms window and 10 ms hop (its defaults are the same times at 44.1 kHz). */
const TEMPO_PARAMS = { bufferSize: 512, hopSize: ANALYSIS_SAMPLE_RATE / 100, timeStep: 0.01 };
/** Chroma frames of about 186 ms, hop of half a frame (5.4 Hz bins). */
const CHROMA_FRAME = 2048;
const CHROMA_HOP = 1024;

/**
 * Tempo in BPM by the BeatRoot algorithm of `music-tempo`, from mono PCM at ANALYSIS_SAMPLE_RATE; null when
 * it finds no beat (silence, a drone).
 */
export function detectTempo(mono: Float32Array): number | null {
  if (mono.length < ANALYSIS_SAMPLE_RATE) return null;
  const MusicTempo = musicTempo();
  let found: MusicTempoInstance;
  try {
    found = new MusicTempo(mono, { ...TEMPO_PARAMS });
  } catch {
    return null;
  }
  // The tempo is refined from the tracked beats: their mean spacing is steadier than the cluster estimate.
  const beats = found.beats.filter(Number.isFinite);
  const estimate = Number(found.tempo);
  if (beats.length >= 4) {
    const spacing = (beats.at(-1)! - beats[0]!) / (beats.length - 1);
    if (spacing > 0) {
      const fromBeats = 60 / spacing;
      if (Number.isFinite(estimate) && Math.abs(fromBeats - estimate) / estimate < 0.1)
        return round(fromBeats, 2);
    }
  }
  return Number.isFinite(estimate) && estimate > 0 ? round(estimate, 2) : null;
}

export const PITCH_CLASSES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;
export type MusicalKey = {
  tonic: (typeof PITCH_CLASSES)[number];
  mode: 'major' | 'minor';
  /** Readable form, e.g. "A minor". */
  name: string;
  /** Pearson correlation of the chroma profile with the key's profile, in [-1, 1]. */
  confidence: number;
};

/** Krumhansl–Kessler key profiles (probe-tone ratings), from the tonic upwards. */
const MAJOR_PROFILE = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR_PROFILE = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

/** The summed 12-bin chroma of mono PCM at ANALYSIS_SAMPLE_RATE (index 0 is C), computed frame by frame with Meyda. */
export function chromaProfile(mono: Float32Array): number[] {
  const Meyda = meyda();
  if (Meyda.sampleRate !== ANALYSIS_SAMPLE_RATE || Meyda.bufferSize !== CHROMA_FRAME) {
    Meyda.sampleRate = ANALYSIS_SAMPLE_RATE;
    Meyda.bufferSize = CHROMA_FRAME;
    // Meyda caches its filter bank by band count only: rebuild it for this rate and size.
    Meyda.chromaFilterBank = undefined;
  }
  Meyda.windowingFunction = 'hanning';
  const total = new Array<number>(12).fill(0);
  for (let start = 0; start + CHROMA_FRAME <= mono.length; start += CHROMA_HOP) {
    const frame = mono.subarray(start, start + CHROMA_FRAME);
    let energy = 0;
    for (const sample of frame) energy += sample * sample;
    // Near-silent frames carry no pitch, only noise in the normalised chroma.
    if (energy / CHROMA_FRAME < 1e-7) continue;
    const chroma = Meyda.extract('chroma', frame);
    if (!chroma) continue;
    for (let i = 0; i < 12; i++) total[i]! += chroma[i] ?? 0;
  }
  return total;
}

/**
 * The key whose Krumhansl–Kessler profile correlates best with the chroma profile (Krumhansl–Schmuckler);
 * null when the profile is flat (no pitched content).
 */
export function estimateKey(chroma: number[]): MusicalKey | null {
  const spread = Math.max(...chroma) - Math.min(...chroma);
  if (!(spread > 1e-9)) return null;
  let best: MusicalKey | null = null;
  for (let tonic = 0; tonic < 12; tonic++) {
    for (const [mode, profile] of [
      ['major', MAJOR_PROFILE],
      ['minor', MINOR_PROFILE],
    ] as const) {
      const rotated = chroma.map((_, pc) => profile[(pc - tonic + 12) % 12]!);
      const r = pearson(chroma, rotated);
      if (!best || r > best.confidence) {
        const name = PITCH_CLASSES[tonic]!;
        best = { tonic: name, mode, name: `${name} ${mode}`, confidence: r };
      }
    }
  }
  return best && { ...best, confidence: round(best.confidence, 3) };
}

function pearson(a: number[], b: number[]): number {
  const n = a.length;
  const meanA = a.reduce((s, v) => s + v, 0) / n;
  const meanB = b.reduce((s, v) => s + v, 0) / n;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]! - meanA;
    const y = b[i]! - meanB;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return da > 0 && db > 0 ? num / Math.sqrt(da * db) : 0;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
