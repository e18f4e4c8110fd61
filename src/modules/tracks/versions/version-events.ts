import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../../../shared/schemas.ts';
import { OwningTeamId } from '../track-events.ts';

const ofVersion = { versionId: Id, trackId: Id, teamId: OwningTeamId };
const FileFacts = {
  fileId: Id,
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer({ minimum: 0, description: 'Bytes' }),
};

/** The webhook events of versions and their files: payload schemas, descriptions and examples. */
export const VERSION_EVENTS = {
  'version.created': {
    description: 'A version was added at the end of a track’s list (its audio is registered afterwards).',
    schema: Type.Object({ ...ofVersion, audioFileName: Type.String() }),
    example: { versionId: 502, trackId: 101, teamId: 7, audioFileName: 'night-drive-v2.wav' },
  },
  'version.updated': {
    description: "A version's name or notes changed; `changes` holds each field given, with its new value.",
    schema: Type.Object({
      ...ofVersion,
      changes: Type.Partial(
        Type.Object({ name: Type.String(), notes: Type.Union([Type.String(), Type.Null()]) }),
      ),
    }),
    example: { versionId: 502, trackId: 101, teamId: 7, changes: { name: 'Mix 2', notes: 'Louder vocals' } },
  },
  'version.deleted': {
    description: 'A version was deleted with its files, comments and stems.',
    schema: Type.Object(ofVersion),
    example: { versionId: 502, trackId: 101, teamId: 7 },
  },
  'version.marked_final': {
    description: 'A version was marked the final version of its track (no other version is final now).',
    schema: Type.Object(ofVersion),
    example: { versionId: 502, trackId: 101, teamId: 7 },
  },
  'version.audio_registered': {
    description: 'The uploaded audio of a version was checked and registered (replacing any earlier audio).',
    schema: Type.Object({
      ...ofVersion,
      ...FileFacts,
      durationSeconds: Type.Union([Type.Number(), Type.Null()]),
    }),
    example: {
      versionId: 502,
      trackId: 101,
      teamId: 7,
      fileId: 1201,
      fileName: 'night-drive-v2.wav',
      contentType: 'audio/wav',
      size: 31_752_044,
      durationSeconds: 180.02,
    },
  },
  'version.file_added': {
    description:
      'An additional file of a version (alternate bounce, instrumental, ...) was uploaded and registered. ' +
      'Files a music-tool job makes are announced by music_tool.job.succeeded instead.',
    schema: Type.Object({ ...ofVersion, ...FileFacts }),
    example: {
      versionId: 502,
      trackId: 101,
      teamId: 7,
      fileId: 1202,
      fileName: 'night-drive-instrumental.wav',
      contentType: 'audio/wav',
      size: 30_113_280,
    },
  },
  'version.file_deleted': {
    description: 'An additional file of a version was deleted.',
    schema: Type.Object({ ...ofVersion, fileId: Id }),
    example: { versionId: 502, trackId: 101, teamId: 7, fileId: 1202 },
  },
  'version.notes_carried': {
    description:
      'The open notes of the version before (`fromVersionId`: its unresolved top-level comments at a time ' +
      'in the audio with their replies, and its open to-dos) were copied to a version whose audio was ' +
      'registered. Times moved by `offsetSeconds` when the two waveforms aligned with `confidence` of at ' +
      'least 0.6 (`mapped`); otherwise the copies kept their times.',
    schema: Type.Object({
      ...ofVersion,
      fromVersionId: Id,
      comments: Type.Integer({ minimum: 0, description: 'Comments copied, replies included' }),
      todos: Type.Integer({ minimum: 0 }),
      offsetSeconds: Type.Union([Type.Number(), Type.Null()]),
      confidence: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
      mapped: Type.Boolean(),
    }),
    example: {
      versionId: 502,
      trackId: 101,
      teamId: 7,
      fromVersionId: 499,
      comments: 7,
      todos: 2,
      offsetSeconds: 3.004,
      confidence: 0.97,
      mapped: true,
    },
  },
} as const;

export type VersionEventData<T extends keyof typeof VERSION_EVENTS> = Static<
  (typeof VERSION_EVENTS)[T]['schema']
>;
