import { Type } from '@sinclair/typebox';
import { MAX_ANALYSED_SECONDS } from '../../../media/music-analysis.ts';
import { Id, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';

export const OPERATIONS = ['analyze', 'normalize', 'convert', 'trim', 'split'] as const;
export const CONVERT_FORMATS = ['mp3', 'flac', 'wav', 'aac'] as const;
export type ConvertFormat = (typeof CONVERT_FORMATS)[number];
export const SPLIT_MODES = ['mid-side', 'left-right', 'separate'] as const;
export type SplitMode = (typeof SPLIT_MODES)[number];

const EXAMPLE_TIME = '2026-03-16T18:10:00.000Z';

/** The analysis of version 502 in the examples. */
export const VERSION_ANALYSIS_EXAMPLE = {
  loudness: { integratedLufs: -13.8, loudnessRangeLu: 6.2, truePeakDbtp: -0.9 },
  tempoBpm: 118,
  key: { tonic: 'F#', mode: 'minor', name: 'F# minor', confidence: 0.82 },
  durationSeconds: 214.6,
  analysedSeconds: 120,
  analysedAt: '2026-03-16T18:10:42.000Z',
};

export const MusicToolBody = Type.Object(
  {
    operation: StringEnum(OPERATIONS, {
      description:
        `\`analyze\` (EBU R128 loudness and true peak of the whole audio; tempo and key of its first ${MAX_ANALYSED_SECONDS / 60} minutes; stored on the version), \`normalize\` (a new ` +
        'version file at -14 LUFS, true peak at most -1 dBTP), `convert` (a preview file in `format`), ' +
        '`trim` (leading and trailing silence removed, as a new version file), `split` (two or four stems)',
    }),
    format: Type.Optional(
      StringEnum(CONVERT_FORMATS, {
        description: 'Required with `convert`, refused with any other operation',
      }),
    ),
    mode: Type.Optional(
      StringEnum(SPLIT_MODES, {
        description:
          'With `split` only: `mid-side` (default) or `left-right` offline; `separate` (vocals, drums, bass, ' +
          'other) needs a configured separation service, else 503 separation_unavailable',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'MusicToolRun',
    examples: [
      { operation: 'analyze' },
      { operation: 'convert', format: 'mp3' },
      { operation: 'split', mode: 'mid-side' },
    ],
  },
);

/** An `analyze` job just queued. */
export const QUEUED_ANALYSIS_EXAMPLE = {
  id: '0195b2c4-1f3a-7d8e-9b10-2c3d4e5f6a7b',
  operation: 'analyze',
  status: 'queued',
  parameters: {},
  result: null,
  error: null,
  trackId: 101,
  versionId: 502,
  createdAt: EXAMPLE_TIME,
  startedAt: null,
  finishedAt: null,
};

export const MusicToolJobParams = Type.Object({ id: Id, versionId: Id, jobId: Uuid });

export const MusicToolError = Type.Object(
  {
    code: Type.String({
      description:
        '`audio_missing`, `audio_unreadable`, `audio_silent`, `processing_timeout`, `processing_limit` (the ' +
        'memory limit of the analysis), `quota_exceeded`, `version_files_full`, `separation_failed` or ' +
        '`internal_error`',
    }),
    message: Type.String({ description: 'A fixed message for the code' }),
  },
  {
    title: 'MusicToolError',
    examples: [
      {
        code: 'audio_unreadable',
        message:
          'The audio could not be processed: the file is damaged or not in an audio format the tools read',
      },
    ],
  },
);

export const MusicToolJob = Type.Object(
  {
    id: Uuid,
    operation: StringEnum(OPERATIONS),
    status: StringEnum(['queued', 'running', 'succeeded', 'failed'] as const),
    parameters: Type.Record(Type.String(), Type.String(), {
      description: 'The options the job runs with (`format`, `mode`)',
    }),
    result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
      description:
        'Once succeeded. analyze: the analysis as stored on the version; normalize/convert/trim: `{fileId, ' +
        'fileName, contentType, size, durationSeconds, ...}` of the new version file (normalize adds the ' +
        'loudness before and after, trim `leadingSecondsRemoved` and `trailingSecondsRemoved`); split: ' +
        '`{mode, stems: [{stemId, name, fileId}]}`',
    }),
    error: Type.Union([MusicToolError, Type.Null()], { description: 'Once failed' }),
    trackId: Id,
    versionId: Id,
    createdAt: Timestamp,
    startedAt: Type.Union([Timestamp, Type.Null()]),
    finishedAt: Type.Union([Timestamp, Type.Null()]),
  },
  {
    title: 'MusicToolJob',
    description: 'An asynchronous music-tools job: poll it until `status` is succeeded or failed',
    examples: [
      QUEUED_ANALYSIS_EXAMPLE,
      {
        id: '0195b2c4-1f3a-7d8e-9b10-2c3d4e5f6a7b',
        operation: 'analyze',
        status: 'succeeded',
        parameters: {},
        result: VERSION_ANALYSIS_EXAMPLE,
        error: null,
        trackId: 101,
        versionId: 502,
        createdAt: EXAMPLE_TIME,
        startedAt: '2026-03-16T18:10:01.000Z',
        finishedAt: '2026-03-16T18:10:42.000Z',
      },
    ],
  },
);

const Nullable = <T extends ReturnType<typeof Type.Number>>(schema: T) => Type.Union([schema, Type.Null()]);

export const VersionAnalysis = Type.Object(
  {
    loudness: Type.Object({
      integratedLufs: Nullable(Type.Number({ description: 'EBU R128 integrated loudness, LUFS' })),
      loudnessRangeLu: Nullable(Type.Number({ description: 'EBU R128 loudness range, LU' })),
      truePeakDbtp: Nullable(Type.Number({ description: 'Maximum true peak, dBTP' })),
    }),
    tempoBpm: Nullable(Type.Number({ description: 'Beats per minute; null when no beat was found' })),
    key: Type.Union(
      [
        Type.Object({
          tonic: Type.String({ description: 'Pitch class of the tonic, e.g. `A`, `F#`' }),
          mode: StringEnum(['major', 'minor'] as const),
          name: Type.String({ description: 'e.g. `A minor`' }),
          confidence: Type.Number({ description: 'Correlation with the key profile, -1..1' }),
        }),
        Type.Null(),
      ],
      { description: 'Krumhansl–Schmuckler estimate from chroma features; null without pitched content' },
    ),
    durationSeconds: Nullable(Type.Number({ description: 'Duration of the whole audio, seconds' })),
    analysedSeconds: Type.Optional(
      Type.Number({
        description: `Seconds from the start that tempo and key were computed on: at most ${MAX_ANALYSED_SECONDS} (loudness covers the whole audio)`,
      }),
    ),
    analysedAt: Timestamp,
  },
  {
    title: 'VersionAnalysis',
    description: 'The latest music-tools `analyze` result',
    examples: [VERSION_ANALYSIS_EXAMPLE],
  },
);
