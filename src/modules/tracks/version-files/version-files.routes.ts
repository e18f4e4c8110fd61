import type { App } from '../../../app-types.ts';
import { acceptOlderNames } from '../../../shared/older-names.ts';
import { errorResponse, NoContent } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { session, write } from '../route-auth.ts';
import { OWNER_ONLY, SESSION_WRITERS, WRITERS } from '../share-rules.ts';
import { extension, versionArgs, versionRoutes } from '../version-routes.ts';
import { VersionFile } from '../versions/versions.schemas.ts';
import {
  CreateVersionFileBody,
  RegisterVersionFileBody,
  VersionFileParams,
  VersionFileUpload,
} from './version-files.schemas.ts';
import { MAX_VERSION_FILES } from './version-files.service.ts';

const route = versionRoutes('files');
// The shared upload refusals, and a version that holds its most files already.
const refusals = {
  ...fileRefusals,
  409: errorResponse(
    `The version holds ${MAX_VERSION_FILES} additional files already; ${fileRefusals[409].description}`,
  ),
};

/** Additional audio files of a version: upload URL, registration, deletion (the detail lists them). */
export async function versionFilesRoutes(app: App) {
  const versionFiles = app.services.trackVersionFiles;

  app.post(
    route.path('/create'),
    {
      ...acceptOlderNames,
      ...route.options(session, 'create', {
        summary: 'Add an audio file to a version (an alternate bounce, an instrumental, ...): its upload URL',
        description:
          'PUT the audio to `uploadUrl` with `headers`, then register it with POST ' +
          '/api/v1/tracks/{id}/versions/{versionId}/files `{fileKey}`; the version detail then lists it ' +
          'under `files`. The type comes from the file name (400 unsupported_file_type when it is not audio). ' +
          `409 when the version holds ${MAX_VERSION_FILES} additional files already. ` +
          `${SESSION_WRITERS} ${OWNER_ONLY} Sends no event until the file is registered.`,
        body: CreateVersionFileBody,
        response: {
          201: VersionFileUpload,
          ...refusals,
        },
      }),
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await versionFiles.createUpload(
            ...versionArgs(request),
            request.body.audioFileName,
            request.body.audioFileSize,
          ),
        ),
  );

  app.post(
    route.path(),
    route.options(extension(write), 'register', {
      summary: 'Register an uploaded additional audio file of a version (reads its duration and format)',
      description:
        '404 when the key is not an upload of this version; 409 upload_missing when nothing was uploaded; ' +
        `413 quota_exceeded when the team is out of storage; 409 when the version holds ${MAX_VERSION_FILES} ` +
        'additional files already; bytes that are not audio or not the announced size are 400 and end the ' +
        `upload. ${WRITERS} ${OWNER_ONLY} Answers the file (201); sends the \`version.file_added\` webhook ` +
        'event.',
      body: RegisterVersionFileBody,
      response: {
        201: VersionFile,
        ...refusals,
      },
    }),
    async (request, reply) =>
      reply.code(201).send(await versionFiles.register(...versionArgs(request), request.body.fileKey)),
  );

  app.delete(
    route.path('/:fileId'),
    route.options(extension(write), 'delete', {
      summary: 'Delete an additional audio file of a version and its bytes',
      description:
        `${WRITERS} ${OWNER_ONLY} A file that is not an additional file of this version is 404. Sends the ` +
        '`version.file_deleted` webhook event.',
      params: VersionFileParams,
      response: { 204: NoContent },
    }),
    async (request, reply) => {
      await versionFiles.remove(...versionArgs(request), request.params.fileId);
      return reply.code(204).send(null);
    },
  );
}
