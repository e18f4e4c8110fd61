import type { App } from '../../../app-types.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, NoContent } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { read, session, write } from '../route-auth.ts';
import { OWNER_ONLY, READERS, SESSION_WRITERS, WRITERS } from '../share-rules.ts';
import { extension, versionArgs, versionRoutes } from '../version-routes.ts';
import { STEM_AUDIO_RULE, STEM_MANAGERS, STEM_URL_LIFETIME } from './stem-rights-docs.ts';
import {
  CreateStemBody,
  Stem,
  StemCleanupBody,
  StemListQuery,
  StemPage,
  StemParams,
  StemPatchBody,
  StemRightsBody,
  StemUploadBody,
  StemUploadUrl,
} from './stems.schemas.ts';

const route = versionRoutes('stems');

const registrationRefusals = {
  ...fileRefusals,
  404: errorResponse('No such track, version or stem, or the key is not an upload of this version'),
};

/** Stems of a version: upload URL, register, list, read, change, delete, and cleanup of files and uploads. */
export async function stemsRoutes(app: App) {
  const stems = app.services.trackStems;

  app.post(
    route.path('/upload-url'),
    route.options(write, 'uploadUrl', {
      summary: 'A signed URL to upload a stem’s audio to',
      description:
        'PUT the bytes to `uploadUrl` with `headers`, then register the stem with POST .../stems ' +
        '`{name, stemKey}`. `pendingKey` and `stemKey` are the same key under both names the API uses. ' +
        'An upload never registered is removed after a while; POST .../stems/cleanup removes it at once. ' +
        'A media type that is not audio is 400 unsupported_file_type. ' +
        `${WRITERS} ${OWNER_ONLY} Sends no event until the stem is registered.`,
      body: StemUploadBody,
      response: { 200: StemUploadUrl, ...fileRefusals },
    }),
    async (request) => stems.uploadUrl(...versionArgs(request), request.body),
  );

  app.post(
    route.path('/cleanup'),
    route.options(session, 'discardUpload', {
      summary: 'Give up a stem upload that will not be registered: the upload and its bytes are removed',
      description:
        '404 when the key is not a pending stem upload of this version (or was registered). ' +
        `${SESSION_WRITERS} ${OWNER_ONLY} Sends no event.`,
      body: StemCleanupBody,
      response: { 204: NoContent },
    }),
    async (request, reply) => {
      await stems.discardUpload(...versionArgs(request), request.body.pendingKey);
      return reply.code(204).send(null);
    },
  );

  app.get(
    route.path(),
    route.options(read, 'list', {
      summary: 'The stems of a version in their order, with their audio and signed links',
      description:
        '`file.peaks` carries the waveform state only; GET .../stems/{stemId} carries the data. ' +
        `${READERS} ${STEM_AUDIO_RULE} ${STEM_URL_LIFETIME} Changes nothing.`,
      querystring: StemListQuery,
      response: { 200: StemPage },
    }),
    async (request) => stems.list(...versionArgs(request), pageOf(request.query)),
  );

  app.post(
    route.path(),
    route.options(write, 'create', {
      summary: 'Register an uploaded stem: its audio is checked and analysed, the stem goes last',
      description:
        `${WRITERS} ${OWNER_ONLY} A stemKey that is not an upload of this version is 404; 409 ` +
        'upload_missing when nothing was PUT, upload_closed when it expired or was registered; bytes that ' +
        'are not audio or not the announced size are 400 and end the upload; 413 quota_exceeded when the ' +
        'team has no room. Answers the stem (201); sends the `stem.created` webhook event.',
      body: CreateStemBody,
      response: { 201: Stem, ...registrationRefusals },
    }),
    async (request, reply) => reply.code(201).send(await stems.create(...versionArgs(request), request.body)),
  );

  app.get(
    route.path('/:stemId'),
    route.options(extension(read), 'get', {
      summary: 'One stem with its audio, signed links and waveform peaks',
      description: `${READERS} A stem of another version is 404. ${STEM_AUDIO_RULE} ${STEM_URL_LIFETIME} Changes nothing.`,
      params: StemParams,
      response: { 200: Stem },
    }),
    async (request) => stems.get(...versionArgs(request), request.params.stemId),
  );

  app.patch(
    route.path('/:stemId'),
    route.options(write, 'update', {
      summary: 'Change a stem’s name, instrument or notes, or replace its audio with a new upload',
      description:
        `${WRITERS} ${OWNER_ONLY} With stemKey, the upload is registered as POST .../stems does (same ` +
        'refusals) and the previous file is deleted. A stem of another version is 404. Sends the ' +
        '`stem.updated` webhook event with the fields set.',
      params: StemParams,
      body: StemPatchBody,
      response: { 200: Stem, ...registrationRefusals },
    }),
    async (request) => stems.update(...versionArgs(request), request.params.stemId, request.body),
  );

  app.put(
    route.path('/:stemId/rights'),
    route.options(extension(session), 'setRights', {
      summary: 'Set who may download a stem’s audio',
      description:
        '`restricted: true` limits the stem’s audio to the owning team’s owners (always) and the callers ' +
        '`downloadableBy` names; `restricted: false` opens it to everyone who sees the stem again. Others ' +
        `still see the stem (name, facts, peaks) with \`downloadable: false\` and no URLs. ${STEM_MANAGERS} ` +
        `${STEM_URL_LIFETIME} A stem of another version is 404; an unknown or repeated downloader is 400. ` +
        'Answers the stem; sends the `stem.updated` webhook event with `changes: {restricted, ' +
        'downloadableBy}` when the rights change (the same rights again send nothing).',
      params: StemParams,
      body: StemRightsBody,
      response: { 200: Stem },
    }),
    async (request) => stems.setRights(...versionArgs(request), request.params.stemId, request.body),
  );

  app.delete(
    route.path('/:stemId'),
    route.options(write, 'delete', {
      summary: 'Delete a stem and its audio file',
      description:
        `${WRITERS} ${OWNER_ONLY} A stem of another version is 404. Sends the \`stem.deleted\` webhook ` +
        'event.',
      params: StemParams,
      response: { 204: NoContent },
    }),
    async (request, reply) => {
      await stems.remove(...versionArgs(request), request.params.stemId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    route.path('/:stemId/cleanup'),
    route.options(write, 'cleanup', {
      summary: 'Remove a stem’s audio file (e.g. an unwanted or unreadable upload) and keep the stem',
      description:
        'The file and its bytes are deleted and the stem stays with `file: null`, keeping its name, ' +
        'instrument, notes and place, so a new upload can be attached with PATCH `{stemKey}`; DELETE ' +
        'removes the stem itself. Answers the stem; on a stem that has no file it changes nothing. Removing ' +
        'a file sends the `stem.updated` webhook event with `changes: {fileId: null}`. ' +
        `${WRITERS} ${OWNER_ONLY}`,
      params: StemParams,
      response: { 200: Stem },
    }),
    async (request) => stems.removeFile(...versionArgs(request), request.params.stemId),
  );
}
