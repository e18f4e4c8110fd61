import { Type } from '@sinclair/typebox';
import { errorResponse, Id, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { UploadFileName, UploadTicketFields } from '../../files/files.schemas.ts';
import { TrackDetail } from '../../tracks/tracks.schemas.ts';

const FileKey = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: "The voice note's fileKey, as the message's voice shows it",
});

export const VoiceUploadBody = Type.Object(
  {
    fileName: UploadFileName,
    contentType: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'An audio media type (audio/webm, audio/mp4, audio/mpeg, audio/wav, ...)',
    }),
  },
  { title: 'ChatVoiceUpload' },
);

export const VoiceUploadTicket = Type.Object(
  {
    ...UploadTicketFields('fileKey', 'Send it as voiceFileKey with POST .../messages once the audio is PUT'),
    contentType: Type.String({ description: 'The media type the PUT must carry' }),
  },
  {
    title: 'ChatVoiceUploadTicket',
    description: 'PUT the audio here, then post a message with voiceFileKey',
  },
);

export const TranscribeBody = Type.Object({ fileKey: FileKey }, { title: 'ChatVoiceTranscribe' });

export const TranscriptionJob = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('transcription'),
    status: Type.Union([Type.Literal('queued'), Type.Literal('succeeded'), Type.Literal('failed')]),
    threadId: Uuid,
    messageId: Uuid,
    transcript: Type.Union([Type.String(), Type.Null()], { description: 'Once succeeded' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why it failed, once failed' }),
    createdAt: Timestamp,
  },
  {
    title: 'ChatTranscriptionJob',
  },
);

export const SaveVoiceBody = Type.Object(
  {
    teamId: Id,
    title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    fileKey: FileKey,
  },
  {
    title: 'ChatVoiceSave',
  },
);

export const SavedVoiceTrack = Type.Composite([TrackDetail, Type.Object({ versionId: Id })], {
  title: 'ChatVoiceTrack',
  description: 'The new track (as POST /tracks answers it, without the upload) and its first version',
});

export const transcriptionUnavailableResponse = {
  503: errorResponse('transcription_unavailable: no transcription service is configured (TRANSCRIPTION_URL)'),
};
