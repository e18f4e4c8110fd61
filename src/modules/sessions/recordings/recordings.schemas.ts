import { Type } from '@sinclair/typebox';
import { RECORDING_STATUSES } from '../../../db/schema/index.ts';
import { Id, Page, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { EXAMPLE_RESUMABLE, UploadTicketFields } from '../../files/files.schemas.ts';
import { audioFileFields } from '../../tracks/versions/versions.schemas.ts';
import {
  EXAMPLE,
  EXAMPLE_AUDIO,
  exampleSignedUrl,
  Nullable,
  OptionalTeamId,
  SessionParams,
} from '../sessions.schemas.ts';

export const RecordingParams = Type.Object({ ...SessionParams.properties, recordingId: Id });

const FileName = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });
const FileSize = Type.Integer({ minimum: 0, description: 'Exact size in bytes' });
const ContentType = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'An audio media type, e.g. audio/wav, audio/flac, audio/mpeg',
});

const AUDIO_EXAMPLE = {
  fileId: 514,
  fileName: 'night-drive-live-take.wav',
  contentType: 'audio/wav',
  size: 69562368,
  ...EXAMPLE_AUDIO,
  url: exampleSignedUrl('download', 'eyJtIjoiR0VUIiwiayI6InRlYW1zLzcvYXVkaW8ifQ.inline-Rc4'),
  downloadUrl: exampleSignedUrl('download', 'eyJtIjoiR0VUIiwiayI6InRlYW1zLzcvYXVkaW8ifQ.attach-Rc4'),
  urlExpiresAt: '2026-03-14T15:00:00.000Z',
};

const RecordingAudio = Type.Object(audioFileFields, {
  title: 'SessionRecordingAudio',
  description: 'The audio with its facts, waveform (data only on single answers) and signed links',
  examples: [AUDIO_EXAMPLE],
});

export const Recording = Type.Object(
  {
    id: Id,
    sessionId: Id,
    name: Type.String(),
    status: StringEnum(RECORDING_STATUSES, {
      description: 'live: running, no audio yet; stopped: ended, audio may follow; ready: has its audio',
    }),
    startedAt: Nullable({ ...Timestamp, description: 'When a live recording started' }),
    stoppedAt: Nullable(Timestamp),
    durationSeconds: Nullable(
      Type.Number({
        description: "The audio's duration; for a stopped live recording without audio, stop - start",
      }),
    ),
    audio: Nullable(RecordingAudio),
    createdBy: Nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'SessionRecording',
    description: 'A recording of a session',
    examples: [
      {
        id: EXAMPLE.recordingId,
        sessionId: EXAMPLE.sessionId,
        name: 'Night Drive – live take',
        status: 'ready',
        startedAt: '2026-03-14T10:02:00.000Z',
        stoppedAt: '2026-03-14T10:06:05.000Z',
        durationSeconds: 241.5,
        audio: AUDIO_EXAMPLE,
        createdBy: EXAMPLE.ownerId,
        createdAt: '2026-03-14T10:02:00.000Z',
        updatedAt: '2026-03-14T10:20:00.000Z',
      },
    ],
  },
);
export const RecordingPage = Page(Recording);

const UPLOAD_EXAMPLE = {
  teamId: EXAMPLE.teamId,
  fileName: 'night-drive-live-take.wav',
  fileSize: 69562368,
  contentType: 'audio/wav',
};
const PENDING_KEY_EXAMPLE = 'teams/7/audio/0193a5f2-a052-7f7e-9d54-7a6b8c9d0e1f.wav';

export const RecordingUploadBody = Type.Object(
  {
    teamId: OptionalTeamId,
    fileName: FileName,
    fileSize: FileSize,
    contentType: ContentType,
  },
  { title: 'SessionRecordingUpload', examples: [UPLOAD_EXAMPLE] },
);

export const RecordingUploadUrl = Type.Object(
  UploadTicketFields('pendingKey', 'The key of the upload: register it with POST .../recordings'),
  {
    title: 'SessionRecordingUploadTicket',
    examples: [
      {
        uploadUrl: exampleSignedUrl('upload', 'eyJtIjoiUFVUIiwiayI6InRlYW1zLzcvYXVkaW8ifQ.Lq7v'),
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'audio/wav' },
        pendingKey: PENDING_KEY_EXAMPLE,
        expiresAt: '2026-03-14T11:20:00.000Z',
      },
    ],
  },
);

export const RegisterRecordingBody = Type.Object(
  {
    teamId: OptionalTeamId,
    pendingKey: Type.String({
      minLength: 1,
      maxLength: 512,
      description: 'The pendingKey of the upload URL',
    }),
    fileName: { ...FileName, description: 'Names the new recording' },
    fileSize: { ...FileSize, description: 'The fileSize the upload URL was asked for' },
    contentType: { ...ContentType, description: 'The contentType the upload URL was asked for' },
    recordingId: Type.Optional({
      ...Id,
      description:
        'Extension: a stopped live recording of this session without audio, which gets this audio ' +
        'instead of a new recording being made',
    }),
  },
  {
    title: 'SessionRecordingRegister',
    examples: [{ ...UPLOAD_EXAMPLE, pendingKey: PENDING_KEY_EXAMPLE, recordingId: EXAMPLE.recordingId }],
  },
);

export const LiveRecordingBody = Type.Object(
  {
    teamId: OptionalTeamId,
    name: Type.Optional({ ...FileName, maxLength: 200, description: 'Default "Live recording"' }),
  },
  {
    title: 'SessionRecordingLiveStart',
    examples: [{ teamId: EXAMPLE.teamId, name: 'Night Drive – live take' }],
  },
);

export const StopRecordingBody = Type.Object(
  { teamId: OptionalTeamId },
  { title: 'SessionRecordingStop', examples: [{ teamId: EXAMPLE.teamId }] },
);
