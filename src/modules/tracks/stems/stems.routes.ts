import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { ErrorRef, NoContent } from '../../../shared/schemas.ts';
import { read, session, write } from '../route-auth.ts';
import { OWNER_ONLY } from '../share-rules.ts';
import { VersionParams } from '../versions/versions.schemas.ts';
import {
  CreateStemBody,
  Stem,
  StemCleanupBody,
  StemListQuery,
  StemPage,
  StemParams,
  StemPatchBody,
  StemUploadBody,
  StemUploadUrl,
} from './stems.schemas.ts';

const BASE = '/api/v1/tracks/:id/versions/:versionId/stems';

const uploadRefusals = {
  400: { ...ErrorRef, description: 'validation_failed, unsupported_file_type or size_mismatch' },
  413: { ...ErrorRef, description: 'payload_too_large (over the audio limit) or quota_exceeded' },
};

const registrationRefusals = {
  ...uploadRefusals,
  404: {
    ...ErrorRef,
    description: 'No such track, version or stem, or the key is not an upload of this version',
  },
  409: {
    ...ErrorRef,
    description: 'upload_missing (nothing PUT yet) or upload_closed (expired or already used)',
  },
};

/** Stems of a version: upload URL, register, list, read, change, delete, and cleanup of files and uploads. */
export async function stemsRoutes(app: App) {
  const stems = app.services.trackStems;

  app.post(
    `${BASE}/upload-url`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.stems.uploadUrl',
        summary: 'A signed URL to upload a stem’s audio to',
        description:
          'PUT the bytes to `uploadUrl` with `headers`, then register the stem with POST .../stems ' +
          '`{name, stemKey}`. `pendingKey` and `stemKey` are the same key under both names the API uses. ' +
          `An upload never registered is removed after a while; POST .../stems/cleanup removes it at once. ${OWNER_ONLY}`,
        params: VersionParams,
        body: StemUploadBody,
        response: { 200: StemUploadUrl, ...uploadRefusals },
      },
    },
    async (request) =>
      stems.uploadUrl(principalOf(request), request.params.id, request.params.versionId, request.body),
  );

  app.post(
    `${BASE}/cleanup`,
    {
      ...session,
      schema: {
        operationId: 'tracks.versions.stems.discardUpload',
        summary: 'Give up a stem upload that will not be registered: the upload and its bytes are removed',
        description: `404 when the key is not a pending stem upload of this version (or was registered). ${OWNER_ONLY}`,
        params: VersionParams,
        body: StemCleanupBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await stems.discardUpload(
        principalOf(request),
        request.params.id,
        request.params.versionId,
        request.body.pendingKey,
      );
      return reply.code(204).send(null);
    },
  );

  app.get(
    BASE,
    {
      ...read,
      schema: {
        operationId: 'tracks.versions.stems.list',
        summary: 'The stems of a version in their order, with their audio and signed links',
        description: '`file.peaks` carries the waveform state only; GET .../stems/{stemId} carries the data.',
        params: VersionParams,
        querystring: StemListQuery,
        response: { 200: StemPage },
      },
    },
    async (request) =>
      stems.list(principalOf(request), request.params.id, request.params.versionId, pageOf(request.query)),
  );

  app.post(
    BASE,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.stems.create',
        summary: 'Register an uploaded stem: its audio is checked and analysed, the stem goes last',
        description: OWNER_ONLY,
        params: VersionParams,
        body: CreateStemBody,
        response: { 201: Stem, ...registrationRefusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await stems.create(principalOf(request), request.params.id, request.params.versionId, request.body),
        ),
  );

  app.get(
    `${BASE}/:stemId`,
    {
      config: { ...read.config, extension: true },
      schema: {
        operationId: 'tracks.versions.stems.get',
        summary: 'One stem with its audio, signed links and waveform peaks',
        params: StemParams,
        response: { 200: Stem },
      },
    },
    async (request) => {
      const { id, versionId, stemId } = request.params;
      return stems.get(principalOf(request), id, versionId, stemId);
    },
  );

  app.patch(
    `${BASE}/:stemId`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.stems.update',
        summary: 'Change a stem’s name, instrument or notes, or replace its audio with a new upload',
        description: OWNER_ONLY,
        params: StemParams,
        body: StemPatchBody,
        response: { 200: Stem, ...registrationRefusals },
      },
    },
    async (request) => {
      const { id, versionId, stemId } = request.params;
      return stems.update(principalOf(request), id, versionId, stemId, request.body);
    },
  );

  app.delete(
    `${BASE}/:stemId`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.stems.delete',
        summary: 'Delete a stem and its audio file',
        description: OWNER_ONLY,
        params: StemParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { id, versionId, stemId } = request.params;
      await stems.remove(principalOf(request), id, versionId, stemId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${BASE}/:stemId/cleanup`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.stems.cleanup',
        summary: 'Remove a stem’s audio file (e.g. an unwanted or unreadable upload) and keep the stem',
        description:
          'The file and its bytes are deleted and the stem stays with `file: null`, keeping its name, ' +
          'instrument, notes and place, so a new upload can be attached with PATCH `{stemKey}`; DELETE ' +
          `removes the stem itself. Answers the stem; on a stem that has no file it changes nothing. ${OWNER_ONLY}`,
        params: StemParams,
        response: { 200: Stem },
      },
    },
    async (request) => {
      const { id, versionId, stemId } = request.params;
      return stems.removeFile(principalOf(request), id, versionId, stemId);
    },
  );
}
