import { Type } from '@sinclair/typebox';
import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { acceptOlderNames } from '../../shared/older-names.ts';
import { wantsTotal } from '../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../shared/schemas.ts';
import { fileRefusals } from '../files/files.schemas.ts';
import { hotRead, session, write } from './route-auth.ts';
import { OWNER_ONLY, SHARING_RULE } from './share-rules.ts';
import {
  CreatedTrack,
  CreateTrackBody,
  DeleteTrackQuery,
  InspirationBody,
  ReferenceBody,
  ReorderBody,
  ShareBody,
  ShareParams,
  ShareResult,
  StatusBody,
  TrackDetail,
  TrackLink,
  TrackListQuery,
  TrackPage,
  TrackPatchBody,
} from './tracks.schemas.ts';

/** Tracks themselves: list, read, change, delete/restore, status, board order, sharing and links. */
export async function tracksRoutes(app: App) {
  const tracks = app.services.tracks;

  app.get(
    '/api/v1/tracks/',
    {
      ...hotRead,
      schema: {
        operationId: 'tracks.list',
        summary: 'List tracks of a team (or of all your teams), most recently updated first or by title',
        description:
          'Without teamId: every team of the caller (a key: its team). Tracks shared with a team are listed ' +
          'with it. Soft-deleted tracks are left out. Items leave out the long texts (lyrics and notes): ' +
          'GET /tracks/{id} has them.',
        querystring: TrackListQuery,
        response: { 200: TrackPage },
      },
    },
    async (request) => {
      const { teamId, status, q, sort, limit, cursor } = request.query;
      const count = wantsTotal(request.query);
      return tracks.list(principalOf(request), {
        teamId,
        status,
        q,
        sort,
        limit: limit ?? 50,
        cursor,
        count,
      });
    },
  );

  app.post(
    '/api/v1/tracks/',
    {
      ...session,
      ...acceptOlderNames,
      schema: {
        operationId: 'tracks.create',
        summary:
          "Create a track in the team's first status (idea) with its first version and the audio upload URL",
        description:
          'PUT the audio to upload.uploadUrl with upload.headers. An audioFileName whose type is not an ' +
          'accepted audio type is 400 unsupported_file_type, and no track is created. The names team_id, ' +
          'audio_file_name and audio_file_size of the specification are accepted too.',
        body: CreateTrackBody,
        response: { 201: CreatedTrack, ...fileRefusals },
      },
    },
    async (request, reply) => {
      const { title, teamId, audioFileName, audioFileSize } = request.body;
      const created = await tracks.create(principalOf(request), {
        title,
        teamId,
        audioFileName,
        audioFileSize,
      });
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/api/v1/tracks/reorder',
    {
      ...session,
      ...acceptOlderNames,
      schema: {
        operationId: 'tracks.reorder',
        summary: 'Reorder the tracks of one status column (all of them, each once)',
        description:
          'trackOrders (or track_orders) must be a permutation of the live tracks of the status in their team: a repeated or ' +
          `foreign track id, a repeated order, or a missing track is 400. Applied atomically. ${OWNER_ONLY}`,
        body: ReorderBody,
        response: {
          200: Type.Object({ statusId: Type.String(), trackIds: Type.Array(Type.Integer()) }),
        },
      },
    },
    async (request) => tracks.reorder(principalOf(request), request.body.statusId, request.body.trackOrders),
  );

  app.get(
    '/api/v1/tracks/:id',
    {
      ...hotRead,
      schema: {
        operationId: 'tracks.get',
        summary: 'A track with its references and inspirations',
        params: IdParams,
        response: { 200: TrackDetail },
      },
    },
    async (request) => tracks.get(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/tracks/:id',
    {
      ...write,
      schema: {
        operationId: 'tracks.update',
        summary: "Change a track's catalogue fields",
        description: OWNER_ONLY,
        params: IdParams,
        body: TrackPatchBody,
        response: { 200: TrackDetail },
      },
    },
    async (request) => tracks.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/tracks/:id',
    {
      ...session,
      schema: {
        operationId: 'tracks.delete',
        summary: 'Delete a track: soft (default, restorable) or hard (rows and files at once)',
        description: OWNER_ONLY,
        params: IdParams,
        querystring: DeleteTrackQuery,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await tracks.remove(principalOf(request), request.params.id, request.query.mode ?? 'soft');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/tracks/:id/restore',
    {
      config: { auth: auth.session, extension: true },
      schema: {
        operationId: 'tracks.restore',
        summary: 'Bring a soft-deleted track back',
        description: OWNER_ONLY,
        params: IdParams,
        response: { 200: TrackDetail, 409: errorResponse('The track is not deleted') },
      },
    },
    async (request) => tracks.restore(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/tracks/:id/status',
    {
      ...session,
      schema: {
        operationId: 'tracks.status.update',
        summary: "Move a track to another status of its team's configuration (at the end of that column)",
        description: OWNER_ONLY,
        params: IdParams,
        body: StatusBody,
        response: { 200: TrackDetail },
      },
    },
    async (request) => tracks.changeStatus(principalOf(request), request.params.id, request.body.status),
  );

  app.post(
    '/api/v1/tracks/:id/teams',
    {
      ...write,
      schema: {
        operationId: 'tracks.teams.add',
        summary: 'Share a track with another team you belong to; both teams then hold it',
        description:
          `Idempotent. Owners and admins of the owning team only: a plain member, or anyone of a team the ` +
          `track is shared with (admins included), gets 403; a team you are not in is 404. With an API key ` +
          `(of the owning team, tracks:write) only its own team can be named. ${SHARING_RULE}`,
        params: IdParams,
        body: ShareBody,
        response: { 200: ShareResult },
      },
    },
    async (request) => tracks.share(principalOf(request), request.params.id, request.body.teamId),
  );

  app.delete(
    '/api/v1/tracks/:id/teams/:teamId',
    {
      config: { ...write.config, extension: true },
      schema: {
        operationId: 'tracks.teams.remove',
        summary: 'Stop sharing a track with a team; that team no longer sees it, nor has it on its albums',
        description:
          `Owners and admins of the owning team, or a key of the owning team with tracks:write: a plain ` +
          `member, or anyone of a team the track is shared with (admins included), gets 403. The owning ` +
          `team itself cannot be unshared (400); a team the track is not shared with is 404. ${SHARING_RULE}`,
        params: ShareParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await tracks.unshare(principalOf(request), request.params.id, request.params.teamId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/tracks/:id/references',
    {
      ...write,
      schema: {
        operationId: 'tracks.references.create',
        summary: 'Add a reference track link (http or https) with its platform',
        description: OWNER_ONLY,
        params: IdParams,
        body: ReferenceBody,
        response: { 201: TrackLink },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await tracks.addLink(principalOf(request), request.params.id, 'reference', request.body)),
  );

  app.post(
    '/api/v1/tracks/:id/inspirations',
    {
      ...write,
      schema: {
        operationId: 'tracks.inspirations.create',
        summary: 'Add an inspiration link (http or https)',
        description: OWNER_ONLY,
        params: IdParams,
        body: InspirationBody,
        response: { 201: TrackLink },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await tracks.addLink(principalOf(request), request.params.id, 'inspiration', request.body)),
  );
}
