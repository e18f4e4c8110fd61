import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { MusicToolJob, QUEUED_ANALYSIS_EXAMPLE } from '../music-tools/music-tools.schemas.ts';

export const ComparisonQuery = Type.Object(
  {
    a: { ...Id, description: 'A version of the track (the same as `b` is allowed: both sides then match)' },
    b: { ...Id, description: 'Another version of the track' },
  },
  { title: 'TrackComparisonQuery', examples: [{ a: 499, b: 502 }] },
);

const nullable = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const ComparisonSide = Type.Object(
  {
    versionId: Id,
    integratedLufs: nullable('EBU R128 integrated loudness, LUFS (null for silence)'),
    truePeakDbtp: nullable('Maximum true peak, dBTP'),
    durationSeconds: nullable('Duration of the audio, seconds'),
    gainDb: nullable(
      'The gain to play this version at so both sides sound equally loud: 0 for the quieter (the reference), ' +
        'negative for the louder; never positive, so no side is pushed above its own true peak. Null when ' +
        'either side has no integrated loudness (silence)',
    ),
    analysedAt: Timestamp,
  },
  { title: 'TrackComparisonSide', description: 'One side of a loudness-matched A/B comparison' },
);

export const ALIGNMENT_STATES = ['aligned', 'uncertain', 'pending', 'unavailable'] as const;
export type AlignmentState = (typeof ALIGNMENT_STATES)[number];

const EXAMPLE_AT = '2026-03-16T18:10:42.000Z';

export const Comparison = Type.Object(
  {
    trackId: Id,
    a: ComparisonSide,
    b: ComparisonSide,
    referenceVersionId: Type.Union([Id, Type.Null()], {
      description: 'The quieter version, whose loudness both play at (`a` when they are equal)',
    }),
    referenceLufs: nullable(
      'The loudness both play at with their gains: the quieter side’s integrated loudness',
    ),
    alignment: StringEnum(ALIGNMENT_STATES, {
      description:
        '`aligned`: the waveforms match (confidence at least 0.6); `uncertain`: the best match found is weak ' +
        '(offset and confidence still given); `pending`: a waveform is still being computed (ask again); ' +
        '`unavailable`: a waveform failed or has no shape to match (silence, a perfectly steady level)',
    }),
    offsetSeconds: nullable(
      'Where `a` lies in `b`: a moment t of `a` is heard at t + offsetSeconds of `b` (null unless aligned or uncertain)',
    ),
    confidence: nullable('How well the waveforms match at that offset, 0 to 1'),
    resolutionSeconds: nullable('The step the waveforms were compared in: the offset is good to about this'),
  },
  {
    title: 'TrackComparison',
    description: 'Two versions of a track matched for loudness and aligned in time, for a fair A/B',
    examples: [
      {
        trackId: 101,
        a: {
          versionId: 499,
          integratedLufs: -9.6,
          truePeakDbtp: -0.2,
          durationSeconds: 211.6,
          gainDb: -4.2,
          analysedAt: EXAMPLE_AT,
        },
        b: {
          versionId: 502,
          integratedLufs: -13.8,
          truePeakDbtp: -0.9,
          durationSeconds: 214.6,
          gainDb: 0,
          analysedAt: EXAMPLE_AT,
        },
        referenceVersionId: 502,
        referenceLufs: -13.8,
        alignment: 'aligned',
        offsetSeconds: 3.02,
        confidence: 0.93,
        resolutionSeconds: 0.107,
      },
    ],
  },
);

export const ComparisonPending = Type.Object(
  {
    status: StringEnum(['analysing'] as const),
    jobs: Type.Array(MusicToolJob, {
      description: 'The queued or running `analyze` jobs the comparison waits for (one per version at most)',
    }),
  },
  {
    title: 'TrackComparisonPending',
    description: 'The loudness of a version is still being measured: ask again once its job has succeeded',
    examples: [
      {
        status: 'analysing',
        jobs: [QUEUED_ANALYSIS_EXAMPLE],
      },
    ],
  },
);
