import { Type } from '@sinclair/typebox';
import { errorResponse, Id, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { UploadFileName, UploadTicketFields } from '../../files/files.schemas.ts';
import { TrackDetail } from '../../tracks/tracks.schemas.ts';

const FileKey = Type.String({
  minLength: 1,
  maxLength: 1024,
  description:
    "The voice note's key: the message's voice.fileKey, which is also the fileKey voice-upload answered",
});

export const VoiceUploadBody = Type.Object({
  fileName: UploadFileName,
  contentType: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'An audio media type (audio/webm, audio/mp4, audio/mpeg, audio/wav, ...)',
  }),
});

export const VoiceUploadTicket = Type.Object(
  {
    ...UploadTicketFields(
      'fileKey',
      'Send it as voiceFileKey with POST .../messages once the audio is PUT; the message then shows it as ' +
        'voice.fileKey, and transcribe and save-voice take it',
    ),
    contentType: Type.String({ description: 'The media type the PUT must carry' }),
  },
  { description: 'PUT the audio here, then post a message with voiceFileKey' },
);

export const TranscribeBody = Type.Object({ fileKey: FileKey });

export const TranscriptionJob = Type.Object({
  id: Uuid,
  type: Type.Literal('transcription'),
  status: Type.Union([Type.Literal('queued'), Type.Literal('succeeded'), Type.Literal('failed')]),
  threadId: Uuid,
  messageId: Uuid,
  transcript: Type.Union([Type.String(), Type.Null()], { description: 'Once succeeded' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why it failed, once failed' }),
  createdAt: Timestamp,
});

export const SaveVoiceBody = Type.Object({
  teamId: Id,
  title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  fileKey: FileKey,
});

export const SavedVoiceTrack = Type.Composite([TrackDetail, Type.Object({ versionId: Id })]);

export const transcriptionUnavailableResponse = {
  503: errorResponse('transcription_unavailable: no transcription service is configured (TRANSCRIPTION_URL)'),
};
