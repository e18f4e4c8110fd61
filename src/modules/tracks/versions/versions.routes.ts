import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { acceptOlderNames } from '../../../shared/older-names.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { read, session, write } from '../route-auth.ts';
import { OWNER_ONLY } from '../share-rules.ts';
import {
  CreatedVersion,
  CreateVersionBody,
  RegisterAudioBody,
  VersionDetail,
  VersionListQuery,
  VersionMetadataBody,
  VersionOrder,
  VersionPage,
  VersionParams,
  VersionReorderBody,
} from './versions.schemas.ts';

const BASE = '/api/v1/tracks/:id/versions';

/** Versions of a track: list, detail, metadata, delete, final version, order. */
export async function versionsRoutes(app: App) {
  const versions = app.services.trackVersions;

  app.get(
    BASE,
    {
      ...read,
      schema: {
        operationId: 'tracks.versions.list',
        summary: 'The versions of a track in their order',
        params: IdParams,
        querystring: VersionListQuery,
        response: { 200: VersionPage },
      },
    },
    async (request) => versions.list(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    `${BASE}/create`,
    {
      ...session,
      ...acceptOlderNames,
      schema: {
        operationId: 'tracks.versions.create',
        summary: 'Add a version at the end of the list, with the upload URL of its audio',
        description: `PUT the audio to upload.uploadUrl, then register it with PUT /api/v1/tracks/{id}/versions/{versionId}/audio. ${OWNER_ONLY}`,
        params: IdParams,
        body: CreateVersionBody,
        response: { 201: CreatedVersion, ...fileRefusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await versions.create(
            principalOf(request),
            request.params.id,
            request.body.audioFileName,
            request.body.audioFileSize,
          ),
        ),
  );

  app.put(
    `${BASE}/:versionId/audio`,
    {
      config: { ...write.config, extension: true },
      schema: {
        operationId: 'tracks.versions.audio.register',
        summary:
          'Register the uploaded audio of a version (reads its duration and format, queues the waveform)',
        description:
          'Replaces the version’s previous audio. 404 when the key is not an upload of this version; 409 ' +
          'upload_missing when nothing was uploaded, upload_closed when the key was registered already; 413 ' +
          `quota_exceeded when the team is out of storage. ${OWNER_ONLY}`,
        params: VersionParams,
        body: RegisterAudioBody,
        response: {
          200: VersionDetail,
          ...fileRefusals,
        },
      },
    },
    async (request) =>
      versions.registerAudio(
        principalOf(request),
        request.params.id,
        request.params.versionId,
        request.body.fileKey,
      ),
  );

  app.patch(
    `${BASE}/reorder`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.reorder',
        summary: 'Reorder the versions of a track (every version, each once)',
        description: `A repeated or foreign version id, a repeated order or a missing version is 400. ${OWNER_ONLY}`,
        params: IdParams,
        body: VersionReorderBody,
        response: { 200: VersionOrder },
      },
    },
    async (request) => versions.reorder(principalOf(request), request.params.id, request.body.versions),
  );

  app.get(
    `${BASE}/:versionId/detail`,
    {
      ...read,
      schema: {
        operationId: 'tracks.versions.get',
        summary: 'A version with its audio facts, review state and counts',
        params: VersionParams,
        response: { 200: VersionDetail },
      },
    },
    async (request) => versions.detail(principalOf(request), request.params.id, request.params.versionId),
  );

  app.patch(
    `${BASE}/:versionId/metadata`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.updateMetadata',
        summary: "Change a version's name or notes",
        description: OWNER_ONLY,
        params: VersionParams,
        body: VersionMetadataBody,
        response: { 200: VersionDetail },
      },
    },
    async (request) =>
      versions.updateMetadata(
        principalOf(request),
        request.params.id,
        request.params.versionId,
        request.body,
      ),
  );

  app.patch(
    `${BASE}/:versionId/final`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.markFinal',
        summary: 'Make this the final version of the track (the previous final one stops being final)',
        description: OWNER_ONLY,
        params: VersionParams,
        response: { 200: VersionDetail },
      },
    },
    async (request) => versions.markFinal(principalOf(request), request.params.id, request.params.versionId),
  );

  app.delete(
    `${BASE}/:versionId`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.delete',
        summary: 'Delete a version with its comments, to-dos, reviews, stems, plays and files',
        description: OWNER_ONLY,
        params: VersionParams,
        response: {
          204: NoContent,
          409: errorResponse('The only version of a track cannot be deleted'),
        },
      },
    },
    async (request, reply) => {
      await versions.remove(principalOf(request), request.params.id, request.params.versionId);
      return reply.code(204).send(null);
    },
  );
}
