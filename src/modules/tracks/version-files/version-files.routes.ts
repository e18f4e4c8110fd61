import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { ErrorRef, NoContent } from '../../../shared/schemas.ts';
import { session, write } from '../route-auth.ts';
import { OWNER_ONLY } from '../share-rules.ts';
import { VersionFile, VersionParams } from '../versions/versions.schemas.ts';
import {
  CreateVersionFileBody,
  RegisterVersionFileBody,
  VersionFileParams,
  VersionFileUpload,
} from './version-files.schemas.ts';
import { MAX_VERSION_FILES } from './version-files.service.ts';

const BASE = '/api/v1/tracks/:id/versions/:versionId/files';
const full = { ...ErrorRef, description: `The version holds ${MAX_VERSION_FILES} additional files already` };

/** Additional audio files of a version: upload URL, registration, deletion (the detail lists them). */
export async function versionFilesRoutes(app: App) {
  const versionFiles = app.services.trackVersionFiles;

  app.post(
    `${BASE}/create`,
    {
      ...session,
      schema: {
        operationId: 'tracks.versions.files.create',
        summary: 'Add an audio file to a version (an alternate bounce, an instrumental, ...): its upload URL',
        description:
          'PUT the audio to `uploadUrl` with `headers`, then register it with POST ' +
          '/api/v1/tracks/{id}/versions/{versionId}/files `{fileKey}`; the version detail then lists it ' +
          'under `files`. The type comes from the file name.' +
          ` ${OWNER_ONLY}`,
        params: VersionParams,
        body: CreateVersionFileBody,
        response: {
          201: VersionFileUpload,
          400: { ...ErrorRef, description: 'validation_failed or unsupported_file_type' },
          409: full,
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await versionFiles.createUpload(
            principalOf(request),
            request.params.id,
            request.params.versionId,
            request.body.audio_file_name,
            request.body.audio_file_size,
          ),
        ),
  );

  app.post(
    BASE,
    {
      config: { ...write.config, extension: true },
      schema: {
        operationId: 'tracks.versions.files.register',
        summary: 'Register an uploaded additional audio file of a version (reads its duration and format)',
        description:
          '404 when the key is not an upload of this version; 409 upload_missing when nothing was uploaded; ' +
          `413 quota_exceeded when the team is out of storage. ${OWNER_ONLY}`,
        params: VersionParams,
        body: RegisterVersionFileBody,
        response: {
          201: VersionFile,
          409: { ...ErrorRef, description: 'upload_missing, upload_closed, or the version is full' },
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await versionFiles.register(
            principalOf(request),
            request.params.id,
            request.params.versionId,
            request.body.fileKey,
          ),
        ),
  );

  app.delete(
    `${BASE}/:fileId`,
    {
      config: { ...write.config, extension: true },
      schema: {
        operationId: 'tracks.versions.files.delete',
        summary: 'Delete an additional audio file of a version and its bytes',
        description: OWNER_ONLY,
        params: VersionFileParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { id, versionId, fileId } = request.params;
      await versionFiles.remove(principalOf(request), id, versionId, fileId);
      return reply.code(204).send(null);
    },
  );
}
