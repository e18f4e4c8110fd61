import { Type } from '@sinclair/typebox';
import { RECORDING_STATUSES } from '../../../db/schema/index.ts';
import { Id, Page, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { UploadTicketFields } from '../../files/files.schemas.ts';
import { audioFileFields } from '../../tracks/versions/versions.schemas.ts';
import { Nullable, OptionalTeamId, SessionParams } from '../sessions.schemas.ts';

export const RecordingParams = Type.Object({ ...SessionParams.properties, recordingId: Id });

const FileName = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });
const FileSize = Type.Integer({ minimum: 0, description: 'Exact size in bytes' });
const ContentType = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'An audio media type, e.g. audio/wav, audio/flac, audio/mpeg',
});

const RecordingAudio = Type.Object(audioFileFields, {
  title: 'SessionRecordingAudio',
  description: 'The audio with its facts, waveform (data only on single answers) and signed links',
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
  },
);
export const RecordingPage = Page(Recording);

export const RecordingUploadBody = Type.Object(
  {
    teamId: Id,
    fileName: FileName,
    fileSize: FileSize,
    contentType: ContentType,
  },
  { title: 'SessionRecordingUpload' },
);

export const RecordingUploadUrl = Type.Object(
  UploadTicketFields('pendingKey', 'The key of the upload: register it with POST .../recordings'),
  {
    title: 'SessionRecordingUploadTicket',
  },
);

export const RegisterRecordingBody = Type.Object(
  {
    teamId: Id,
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
  },
);

export const LiveRecordingBody = Type.Object(
  {
    teamId: Id,
    name: Type.Optional({ ...FileName, maxLength: 200, description: 'Default "Live recording"' }),
  },
  {
    title: 'SessionRecordingLiveStart',
  },
);

export const StopRecordingBody = Type.Object({ teamId: OptionalTeamId }, { title: 'SessionRecordingStop' });
