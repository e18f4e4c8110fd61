import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { errorResponse } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { ThreadParams } from '../chat.schemas.ts';
import { MessageParams } from '../messages/messages.schemas.ts';
import { SESSION_ONLY, STREAM, session, sessionExtension, THREAD_READERS } from '../route-auth.ts';
import { saveVoiceAsTrack } from './save-voice.ts';
import {
  SavedVoiceTrack,
  SaveVoiceBody,
  TranscribeBody,
  TranscriptionJob,
  transcriptionUnavailableResponse,
  VoiceUploadBody,
  VoiceUploadTicket,
} from './voice.schemas.ts';

const DELETED = 'conflict: the message was deleted';

/** Voice notes of chat: upload, transcription, and saving one as a track. */
export async function chatVoiceRoutes(app: App) {
  const { voice, transcription } = app.services.chat;

  app.post(
    '/api/v1/chat/threads/:threadId/voice-upload',
    {
      ...session,
      schema: {
        operationId: 'chat.voice.upload',
        summary: 'An upload URL for a voice note',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} ` +
          'Audio types only (400 unsupported_file_type otherwise); the limits and quota of audio files apply, in the ' +
          "storage of the thread's first team. PUT the audio, then POST .../messages with voiceFileKey. " +
          'Nothing is posted yet: an upload never registered expires.',
        params: ThreadParams,
        body: VoiceUploadBody,
        response: { 200: VoiceUploadTicket, ...fileRefusals },
      },
    },
    async (request) => voice.uploadUrl(principalOf(request), request.params.threadId, request.body),
  );

  app.post(
    '/api/v1/chat/threads/:threadId/messages/:messageId/transcribe',
    {
      ...session,
      schema: {
        operationId: 'chat.voice.transcribe',
        summary: "Transcribe a message's voice note",
        description:
          `${SESSION_ONLY} ${THREAD_READERS} ` +
          'Answers 202 with a job; poll it with GET .../transcription. The transcript lands on the message ' +
          `(voice.transcript) and message.updated is emitted on ${STREAM}, as it is when the job fails. ` +
          'Asking again replaces the transcript. fileKey ' +
          "must be the message's voice.fileKey (else 404); 409 on a deleted message. 503 " +
          'transcription_unavailable when no OpenAI-compatible transcription service is configured ' +
          '(TRANSCRIPTION_URL), said only to those who see the message.',
        params: MessageParams,
        body: TranscribeBody,
        response: {
          202: TranscriptionJob,
          409: errorResponse(DELETED),
          ...transcriptionUnavailableResponse,
        },
      },
    },
    async (request, reply) => {
      const { threadId, messageId } = request.params;
      const job = await transcription.request(
        principalOf(request),
        threadId,
        messageId,
        request.body.fileKey,
      );
      return reply.code(202).send(job);
    },
  );

  app.get(
    '/api/v1/chat/threads/:threadId/messages/:messageId/transcription',
    {
      ...sessionExtension,
      schema: {
        operationId: 'chat.voice.transcription',
        summary: 'The latest transcription job of a message',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} status queued until the provider answered, then succeeded ` +
          '(with transcript) or failed (with error). 404 when none was asked for.',
        params: MessageParams,
        response: { 200: TranscriptionJob },
      },
    },
    async (request) =>
      transcription.job(principalOf(request), request.params.threadId, request.params.messageId),
  );

  app.post(
    '/api/v1/chat/threads/:threadId/messages/:messageId/save-voice',
    {
      ...session,
      schema: {
        operationId: 'chat.voice.save',
        summary: 'Make a track from a voice note',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} ` +
          'Creates a track in teamId (same rules as POST /tracks: a team of the caller, else 404) whose first ' +
          'version’s audio is a copy of the voice note: it stays when the message or thread goes. The copy ' +
          "counts towards teamId's storage quota (413 quota_exceeded). Answers the track as POST /tracks " +
          'does, without the upload (the audio is already there), with versionId. fileKey must be the ' +
          "message's voice.fileKey (else 404); 409 on a deleted message.",
        params: MessageParams,
        body: SaveVoiceBody,
        response: {
          201: SavedVoiceTrack,
          ...fileRefusals,
          409: errorResponse(`${DELETED}; or as registering an upload: upload_closed, upload_registering`),
        },
      },
    },
    async (request, reply) => {
      const { services } = app;
      const track = await saveVoiceAsTrack(
        {
          db: voice.db,
          voice,
          files: services.files,
          tracks: services.tracks,
          versions: services.trackVersions,
        },
        principalOf(request),
        request.params,
        request.body,
      );
      return reply.code(201).send(track);
    },
  );
}
