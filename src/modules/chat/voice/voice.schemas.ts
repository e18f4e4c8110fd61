import { Type } from '@sinclair/typebox';
import { errorResponse, Id, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { EXAMPLE_RESUMABLE, UploadFileName, UploadTicketFields } from '../../files/files.schemas.ts';
import { TrackDetail } from '../../tracks/tracks.schemas.ts';
import { CHAT_EXAMPLE } from '../chat.schemas.ts';

const VOICE_FILE_KEY = 'teams/7/audio/0193a5f3-4d5e-7f60-9b72-8d9e0f1a2b3c.webm';

const FileKey = Type.String({
  minLength: 1,
  maxLength: 1024,
  description:
    "The voice note's key: the message's voice.fileKey, which is also the fileKey voice-upload answered",
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
  { title: 'ChatVoiceUpload', examples: [{ fileName: 'chorus-idea.webm', contentType: 'audio/webm' }] },
);

export const VoiceUploadTicket = Type.Object(
  {
    ...UploadTicketFields(
      'fileKey',
      'Send it as voiceFileKey with POST .../messages once the audio is PUT; the message then shows it as ' +
        'voice.fileKey, and transcribe and save-voice take it',
    ),
    contentType: Type.String({ description: 'The media type the PUT must carry' }),
  },
  {
    title: 'ChatVoiceUploadTicket',
    description: 'PUT the audio here, then post a message with voiceFileKey',
    examples: [
      {
        uploadUrl:
          'https://music.example.com/api/v1/files/upload?token=eyJtIjoiUFVUIiwiayI6InRlYW1zLzcvYXVkaW8ifQ.Wb6',
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'audio/webm' },
        fileKey: VOICE_FILE_KEY,
        expiresAt: '2026-03-14T10:40:00.000Z',
        contentType: 'audio/webm',
      },
    ],
  },
);

export const TranscribeBody = Type.Object(
  { fileKey: FileKey },
  { title: 'ChatVoiceTranscribe', examples: [{ fileKey: VOICE_FILE_KEY }] },
);

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
    examples: [
      {
        id: '0193a5f3-5e6f-7a71-8c83-9e0f1a2b3c4d',
        type: 'transcription',
        status: 'succeeded',
        threadId: CHAT_EXAMPLE.threadId,
        messageId: CHAT_EXAMPLE.voiceMessageId,
        transcript: 'Chorus idea: lift the last line up an octave',
        error: null,
        createdAt: '2026-03-14T09:52:00.000Z',
      },
    ],
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
    examples: [{ teamId: CHAT_EXAMPLE.teamId, title: 'Night Drive – chorus idea', fileKey: VOICE_FILE_KEY }],
  },
);

export const SavedVoiceTrack = Type.Composite([TrackDetail, Type.Object({ versionId: Id })], {
  title: 'ChatVoiceTrack',
  description: 'The new track (as POST /tracks answers it, without the upload) and its first version',
  examples: [
    {
      id: 102,
      teamId: CHAT_EXAMPLE.teamId,
      teamIds: [CHAT_EXAMPLE.teamId],
      statusId: 'idea',
      position: 0,
      title: 'Night Drive – chorus idea',
      artist: null,
      genre: null,
      tags: [],
      bpm: null,
      key: null,
      language: null,
      isrc: null,
      label: null,
      distributor: null,
      explicit: null,
      lyrics: null,
      notes: null,
      releaseDate: null,
      coverFileId: null,
      createdBy: CHAT_EXAMPLE.authorId,
      deletedAt: null,
      createdAt: '2026-03-14T09:55:00.000Z',
      updatedAt: '2026-03-14T09:55:00.000Z',
      cover: null,
      references: [],
      inspirations: [],
      versionId: 502,
    },
  ],
});

export const transcriptionUnavailableResponse = {
  503: errorResponse('transcription_unavailable: no transcription service is configured (TRANSCRIPTION_URL)'),
};
