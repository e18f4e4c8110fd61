/** Test-only signals with known musical facts: click tracks, triads, tones between silences. */

const NOTE_INDEX: Record<string, number> = {
  C: 0,
  'C#': 1,
  D: 2,
  'D#': 3,
  E: 4,
  F: 5,
  'F#': 6,
  G: 7,
  'G#': 8,
  A: 9,
  'A#': 10,
  B: 11,
};

/** Frequency of a pitch class in the octave of middle C (C4 = 261.63 Hz), `octave` octaves up or down. */
export function noteFrequency(note: string, octave = 0): number {
  const index = NOTE_INDEX[note];
  if (index === undefined) throw new Error(`Unknown note ${note}`);
  // A4 = 440 Hz is 9 semitones above C4.
  return 440 * 2 ** ((index - 9) / 12 + octave);
}

/** Short decaying noise-and-tone clicks at `bpm`, first one at 0 (mono). */
export function clickTrack(options: { sampleRate: number; seconds: number; bpm: number }): Float32Array {
  const { sampleRate, seconds, bpm } = options;
  const out = new Float32Array(Math.round(sampleRate * seconds));
  const period = (60 / bpm) * sampleRate;
  const clickLength = Math.round(0.03 * sampleRate);
  let seed = 1;
  const noise = () => {
    seed = (seed * 16807) % 2147483647;
    return (seed / 2147483647) * 2 - 1;
  };
  for (let beat = 0; beat * period < out.length; beat++) {
    const start = Math.round(beat * period);
    for (let i = 0; i < clickLength && start + i < out.length; i++) {
      const envelope = Math.exp(-i / (0.004 * sampleRate));
      out[start + i] =
        0.8 * envelope * (0.6 * noise() + 0.4 * Math.sin((2 * Math.PI * 1000 * i) / sampleRate));
    }
  }
  return out;
}

/**
 * A sustained triad (root, third, fifth; `minor` lowers the third) voiced over two octaves with a bass
 * root, so its pitch classes are clear (mono).
 */
export function triad(options: {
  sampleRate: number;
  seconds: number;
  root: string;
  minor?: boolean;
}): Float32Array {
  const { sampleRate, seconds } = options;
  const root = noteFrequency(options.root);
  const third = root * 2 ** ((options.minor ? 3 : 4) / 12);
  const fifth = root * 2 ** (7 / 12);
  const partials = [
    [root / 2, 0.3],
    [root, 0.25],
    [third, 0.2],
    [fifth, 0.2],
    [root * 2, 0.1],
    [third * 2, 0.08],
    [fifth * 2, 0.08],
  ] as const;
  const out = new Float32Array(Math.round(sampleRate * seconds));
  for (let i = 0; i < out.length; i++) {
    let value = 0;
    for (const [frequency, amplitude] of partials)
      value += amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
    out[i] = 0.6 * value;
  }
  return out;
}

/** `lead` seconds of silence, `tone` seconds of a sine, `tail` seconds of silence (mono). */
export function toneBetweenSilences(options: {
  sampleRate: number;
  lead: number;
  tone: number;
  tail: number;
  frequency?: number;
  amplitude?: number;
}): Float32Array {
  const { sampleRate } = options;
  const start = Math.round(options.lead * sampleRate);
  const length = Math.round(options.tone * sampleRate);
  const out = new Float32Array(start + length + Math.round(options.tail * sampleRate));
  const amplitude = options.amplitude ?? 0.5;
  const frequency = options.frequency ?? 440;
  for (let i = 0; i < length; i++)
    out[start + i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return out;
}
