import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { EmptyBody, NoContent } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { conflictResponse } from '../../teams/conflict-response.ts';
import { acceptEmptyJsonBody } from '../../users/empty-body.ts';
import { SESSION_ONLY, session, sessionExtension } from '../route-auth.ts';
import {
  CampFile,
  CampFilePage,
  CampFileParams,
  CampFilesQuery,
  CampFileUpload,
  CreateCampFileBody,
} from './camp-files.schemas.ts';
import { CampRefParams } from './camps.schemas.ts';

/** The shared files of a camp: two-step uploads like team media, stored on a team of the uploader. */
export async function campFilesRoutes(app: App) {
  const { campFiles } = app.services.organisations;

  app.get(
    '/api/v1/camps/:camp/files',
    {
      ...session,
      schema: {
        operationId: 'camps.files.list',
        summary: 'The files shared with the camp, newest first, with signed links',
        description:
          `${SESSION_ONLY} Anyone who reads the camp's organisation (its members and the members of its ` +
          "teams; anyone else: 404). `{camp}` is the camp's id or slug. Uploads not registered yet are not " +
          'listed. Links are signed and expire (`urlExpiresAt`). Keyset pages.',
        params: CampRefParams,
        querystring: CampFilesQuery,
        response: { 200: CampFilePage },
      },
    },
    async (request) => campFiles.list(principalOf(request), request.params.camp, pageOf(request.query)),
  );

  app.post(
    '/api/v1/camps/:camp/files',
    {
      ...sessionExtension,
      schema: {
        operationId: 'camps.files.create',
        summary: 'Start sharing a file with the camp: answers the pending file and a URL to PUT its bytes to',
        description:
          `${SESSION_ONLY} Anyone who reads the camp shares files. \`teamId\` names a team of the caller's ` +
          '(404 otherwise): the file is stored there and counts towards its quota and file limits. PUT the ' +
          'bytes to `uploadUrl` with `headers`, then confirm with ' +
          '`POST /api/v1/camps/{camp}/files/{fileId}/added`; an upload never confirmed expires.',
        params: CampRefParams,
        body: CreateCampFileBody,
        response: { 201: CampFileUpload, ...fileRefusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await campFiles.create(principalOf(request), request.params.camp, request.body)),
  );

  await app.register(async (scope: App) => {
    acceptEmptyJsonBody(scope);
    scope.post(
      '/api/v1/camps/:camp/files/:fileId/added',
      {
        ...sessionExtension,
        schema: {
          operationId: 'camps.files.added',
          summary: 'Confirm a camp file once its bytes are PUT: the file is checked, stored and listed',
          description:
            `${SESSION_ONLY} By a member of the team the file is stored on (anyone else: 404). The bytes are ` +
            'checked against the announced size and type and the quota (see 400, 409, 413); then the file is ' +
            'listed with the camp and `camp.file_added` is recorded. Calling it again after success answers ' +
            'the file. Takes no body (or `{}`).',
          params: CampFileParams,
          body: EmptyBody,
          response: {
            200: CampFile,
            ...fileRefusals,
            ...conflictResponse('upload_missing (nothing PUT yet) or upload_closed (expired or discarded)'),
          },
        },
      },
      async (request) => campFiles.added(principalOf(request), request.params.camp, request.params.fileId),
    );
  });

  app.delete(
    '/api/v1/camps/:camp/files/:fileId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'camps.files.delete',
        summary: 'Delete a camp file and its bytes, registered or pending',
        description:
          `${SESSION_ONLY} By its uploader, owners and admins of its team, or owners and admins of the ` +
          'organisation (403 `forbidden` for anyone else who reads the camp; 404 for a file of another camp). ' +
          'Its bytes and the quota they held are freed; deleting a registered file records `camp.file_deleted`.',
        params: CampFileParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await campFiles.remove(principalOf(request), request.params.camp, request.params.fileId);
      return reply.code(204).send(null);
    },
  );
}
