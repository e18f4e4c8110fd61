import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../../../shared/schemas.ts';
import { OwningTeamId } from '../track-events.ts';
import { StemDownloaderSchema } from './stem-rights.ts';

const ofStem = { stemId: Id, versionId: Id, trackId: Id, teamId: OwningTeamId };
const Nullable = Type.Union([Type.String(), Type.Null()]);

/** The webhook events of stems: payload schemas, descriptions and examples. */
export const STEM_EVENTS = {
  'stem.created': {
    description:
      'A stem was registered on a version with its uploaded file. Stems a music-tool split makes are ' +
      'announced by music_tool.job.succeeded instead.',
    schema: Type.Object({ ...ofStem, name: Type.String(), instrument: Nullable, fileId: Id }),
    example: {
      stemId: 61,
      versionId: 502,
      trackId: 101,
      teamId: 7,
      name: 'Drums',
      instrument: 'drums',
      fileId: 1210,
    },
  },
  'stem.updated': {
    description:
      "A stem's name, instrument or notes changed, its file was replaced or removed, or its download rights " +
      'changed; `changes` holds each field set, with its new value (`fileId` null: the file was removed; ' +
      '`restricted` and `downloadableBy` come together, the rights as they now are).',
    schema: Type.Object({
      ...ofStem,
      changes: Type.Partial(
        Type.Object({
          name: Type.String(),
          instrument: Nullable,
          notes: Nullable,
          fileId: Type.Union([Id, Type.Null()]),
          restricted: Type.Boolean(),
          downloadableBy: Type.Array(StemDownloaderSchema),
        }),
      ),
    }),
    example: { stemId: 61, versionId: 502, trackId: 101, teamId: 7, changes: { name: 'Drums (tight)' } },
  },
  'stem.deleted': {
    description: 'A stem was deleted with its file.',
    schema: Type.Object(ofStem),
    example: { stemId: 61, versionId: 502, trackId: 101, teamId: 7 },
  },
} as const;

export type StemEventData<T extends keyof typeof STEM_EVENTS> = Static<(typeof STEM_EVENTS)[T]['schema']>;
