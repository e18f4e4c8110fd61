import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { conflictResponse } from '../../teams/conflict-response.ts';
import { acceptEmptyJsonBody, bodyMayBeLeftOut } from '../../users/empty-body.ts';
import { MEMBERS, READERS, SESSION_ONLY, session, sessionExtension } from '../route-auth.ts';
import { SessionParams, TeamPageQuery } from '../sessions.schemas.ts';
import {
  LiveRecordingBody,
  Recording,
  RecordingPage,
  RecordingParams,
  RecordingUploadBody,
  RecordingUploadUrl,
  RegisterRecordingBody,
  StopRecordingBody,
} from './recordings.schemas.ts';

/** Recordings of a session: uploaded ones, live ones, their list. */
export async function recordingsRoutes(app: App) {
  const recordings = app.services.sessionRecordings;

  app.get(
    '/api/v1/sessions/:sessionId/recordings',
    {
      ...session,
      schema: {
        operationId: 'sessions.recordings.list',
        summary: "The session's recordings, newest first (waveform state without the data)",
        description:
          `${SESSION_ONLY} ${READERS} teamId, when given, must be the session's team (else 404). Live recordings are ` +
          'listed too (status live, no audio yet). Keyset pages: pass nextCursor as cursor.',
        params: SessionParams,
        querystring: TeamPageQuery,
        response: { 200: RecordingPage },
      },
    },
    async (request) => {
      const { teamId, ...page } = request.query;
      return recordings.list(principalOf(request), request.params.sessionId, teamId, pageOf(page));
    },
  );

  app.post(
    '/api/v1/sessions/:sessionId/recordings/upload-url',
    {
      ...session,
      schema: {
        operationId: 'sessions.recordings.uploadUrl',
        summary: "An upload URL for a recording's audio",
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). Audio types only ` +
          '(400 unsupported_file_type otherwise). PUT the bytes to `uploadUrl` with `headers`, then register with ' +
          'POST .../recordings and the `pendingKey`. The upload takes exactly fileSize bytes and reserves ' +
          "that much of the team's storage quota until it is registered or expires.",
        params: SessionParams,
        body: RecordingUploadBody,
        response: { 200: RecordingUploadUrl, ...fileRefusals },
      },
    },
    async (request) => recordings.uploadUrl(principalOf(request), request.params.sessionId, request.body),
  );

  app.post(
    '/api/v1/sessions/:sessionId/recordings',
    {
      ...session,
      schema: {
        operationId: 'sessions.recordings.register',
        summary: 'Register an uploaded recording: audio facts now, the waveform in the background',
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404); 404 for a pendingKey ` +
          'that is not an upload of this session. ' +
          'fileSize and contentType must be those the upload URL was asked for (400 otherwise, the upload ' +
          'staying usable); fileName names the recording. Without recordingId a new recording is made ' +
          '(201); with the id of a stopped live recording of the session, that recording gets the audio ' +
          '(200; 409 while it runs or when it has audio already).',
        params: SessionParams,
        body: RegisterRecordingBody,
        response: {
          200: Recording,
          201: Recording,
          ...fileRefusals,
          ...conflictResponse(
            'upload_missing, upload_registering, upload_closed, or conflict (the ' +
              'recording named by recordingId is running or has its audio already)',
          ),
        },
      },
    },
    async (request, reply) => {
      const { recording, created } = await recordings.register(
        principalOf(request),
        request.params.sessionId,
        request.body,
      );
      return reply.code(created ? 201 : 200).send(recording);
    },
  );

  app.post(
    '/api/v1/sessions/:sessionId/recordings/live',
    {
      ...session,
      ...bodyMayBeLeftOut,
      schema: {
        operationId: 'sessions.recordings.live',
        summary: 'Start a live recording: no audio yet, markers can be placed while it runs',
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). ` +
          'Answers the recording with status live and startedAt. One recording runs at a time per session ' +
          '(409). Stop it with POST .../recordings/{recordingId}/stop; its audio can be registered later ' +
          'with the same upload pair and recordingId.',
        params: SessionParams,
        body: LiveRecordingBody,
        response: { 201: Recording, ...conflictResponse('conflict: a recording is running already') },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await recordings.startLive(principalOf(request), request.params.sessionId, request.body)),
  );

  await app.register(async (scope: App) => {
    acceptEmptyJsonBody(scope);
    scope.post(
      '/api/v1/sessions/:sessionId/recordings/:recordingId/stop',
      {
        ...sessionExtension,
        schema: {
          operationId: 'sessions.recordings.stop',
          summary: 'Stop a live recording (status stopped, stoppedAt); its audio may be registered later',
          description:
            `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). The ` +
            'body may be left out. 404 for a recording of another session; 409 when it is not running.',
          params: RecordingParams,
          body: StopRecordingBody,
          response: { 200: Recording, ...conflictResponse('conflict: the recording is not running') },
        },
      },
      async (request) => recordings.stop(principalOf(request), request.params, request.body.teamId),
    );
  });
}
