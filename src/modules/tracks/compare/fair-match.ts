import type { StoredPeaks } from '../../../db/schema/index.ts';
import { ALIGNMENT_MIN_CONFIDENCE, alignWaveforms } from '../../../media/waveform-alignment.ts';
import type { AlignmentState } from './compare.schemas.ts';

type Loudness = { versionId: number; integratedLufs: number | null };

/**
 * The gains that play two versions at the same loudness. Only lowering is safe (raising the quieter one
 * could push its peaks above 0 dBTP), so the quieter version is the reference (gain 0) and the louder one
 * is lowered to it; `a` is the reference when both are equally loud. Gains are rounded to 0.01 dB. Without
 * an integrated loudness on either side (silence) nothing can be matched and every gain is null.
 */
export function loudnessMatch(a: Loudness, b: Loudness) {
  if (a.integratedLufs === null || b.integratedLufs === null)
    return { gains: [null, null] as const, referenceVersionId: null, referenceLufs: null };
  const reference = b.integratedLufs < a.integratedLufs ? b : a;
  const referenceLufs = reference.integratedLufs as number;
  const gainOf = (side: Loudness) => roundTo(Math.min(0, referenceLufs - (side.integratedLufs as number)), 2);
  return {
    gains: [gainOf(a), gainOf(b)] as const,
    referenceVersionId: reference.versionId,
    referenceLufs,
  };
}

type PeaksOf = { peaksStatus: string; peaks: StoredPeaks | null } | undefined;

/** Where `a` lies in `b` by their stored waveforms, and how sure that is (see `AlignmentState`). */
export function alignmentOf(a: PeaksOf, b: PeaksOf) {
  const none = { offsetSeconds: null, confidence: null, resolutionSeconds: null };
  if (a?.peaksStatus === 'pending' || b?.peaksStatus === 'pending')
    return { alignment: 'pending' as AlignmentState, ...none };
  const found = a?.peaks && b?.peaks ? alignWaveforms(a.peaks, b.peaks) : undefined;
  if (!found) return { alignment: 'unavailable' as AlignmentState, ...none };
  const alignment: AlignmentState = found.confidence >= ALIGNMENT_MIN_CONFIDENCE ? 'aligned' : 'uncertain';
  return { alignment, ...found };
}

/** Rounds half away from zero, without answering -0. */
function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * scale)) / scale;
  return rounded === 0 ? 0 : rounded;
}
