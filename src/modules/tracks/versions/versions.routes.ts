import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { acceptOlderNames } from '../../../shared/older-names.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { read, session, write } from '../route-auth.ts';
import { OWNER_ONLY, READERS, SESSION_WRITERS, WRITERS } from '../share-rules.ts';
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
        description:
          `${READERS} Items are the versions without their audio links, review or counts: GET ` +
          '.../versions/{versionId}/detail has them. Changes nothing.',
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
        description:
          `${SESSION_WRITERS} ${OWNER_ONLY} The new version is named after its place (\`Version 3\`). PUT ` +
          'the audio to upload.uploadUrl, then register it with PUT ' +
          '/api/v1/tracks/{id}/versions/{versionId}/audio. Sends the `version.created` webhook event once the ' +
          'upload URL is issued; when none can be issued (400 unsupported_file_type, 413, 409 ' +
          'too_many_open_uploads) the version is not kept.',
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
          `quota_exceeded when the team is out of storage; 400 when the bytes are not audio of the announced ` +
          `type or not the announced size (the upload then ends). ${WRITERS} ${OWNER_ONLY} Sends the ` +
          '`version.audio_registered` webhook event.',
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
        description:
          `A repeated or foreign version id, a repeated order or a missing version is 400. ${WRITERS} ` +
          `${OWNER_ONLY} Applied atomically; recorded in the team's activity as \`versions.reordered\` (no ` +
          'webhook).',
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
        description:
          `${READERS} A version of another track is 404. \`audio.url\` streams the audio and is marked for ` +
          'the caller: fetching it from its first byte records a play (GET .../plays). The signed links ' +
          'expire (`urlExpiresAt`); read the detail again for fresh ones. Changes nothing by itself.',
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
        description: `${WRITERS} ${OWNER_ONLY} Sends the \`version.updated\` webhook event with the fields given.`,
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
        description:
          `${WRITERS} ${OWNER_ONLY} Sends the \`version.marked_final\` webhook event (again when the ` +
          'version was final already).',
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
        description:
          `${WRITERS} ${OWNER_ONLY} Its audio, stems, additional files and comment attachments are deleted ` +
          'with it. 409 when it is the only version of the track (delete the track instead). Sends the ' +
          '`version.deleted` webhook event.',
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
