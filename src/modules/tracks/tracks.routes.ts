import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { acceptOlderNames } from '../../shared/older-names.ts';
import { wantsTotal } from '../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../shared/schemas.ts';
import { fileRefusals } from '../files/files.schemas.ts';
import { approvalRequiredResponse } from '../teams/status-config.approval-error.ts';
import { hotRead, session, write } from './route-auth.ts';
import { OWNER_ONLY, READERS, SESSION_WRITERS, SHARING_RULE, WRITERS } from './share-rules.ts';
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
  TrackReorderResult,
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
          'Any member of the team (every role), or an API key of it (no scope needed). Without teamId: every ' +
          'team of the caller (a key: its team). Tracks shared with a team are listed with it. Soft-deleted ' +
          'tracks are left out. Items leave out the long texts (lyrics and notes): GET /tracks/{id} has them. ' +
          'A teamId the caller is not in is 404; a status that is not a track status of the team (or of any ' +
          'team listed) is 400, and so is a cursor of another list or sort. Changes nothing.',
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
          'Session only (an API key gets 403 session_required): any member of `teamId` (every role); a team ' +
          'the caller is not in is 404. The track starts in the first track status of the team, at the end of ' +
          'that column, with version 1. PUT the audio to upload.uploadUrl with upload.headers, then register ' +
          'it with PUT /api/v1/tracks/{id}/versions/{versionId}/audio. Sends the `track.created` webhook event ' +
          'once the upload URL is issued. When no upload URL can be issued nothing is kept: an ' +
          'audioFileName whose type is not an accepted audio type is 400 unsupported_file_type; an ' +
          'audioFileSize over the audio limit or the free quota is 413; with audioFileSize, 409 ' +
          'too_many_open_uploads when the team holds its most open uploads. The names team_id, ' +
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
          'trackOrders (or track_orders) must be a permutation of the live tracks of the status in their team: ' +
          'a repeated or foreign track id, a repeated order, or a missing track is 400, and so is a statusId ' +
          '(or status_id) that is not a track status of the team. Applied atomically; positions become ' +
          "0..n-1 in the order given; recorded in the team's activity as `tracks.reordered` (no webhook). " +
          `${SESSION_WRITERS} ${OWNER_ONLY} When the caller sees none of the tracks: 404.`,
        body: ReorderBody,
        response: { 200: TrackReorderResult },
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
        description:
          `${READERS} The answer has every field, lyrics and notes included, the current cover with a signed ` +
          'URL that expires (read the track again for a fresh one), and the reference and inspiration links. ' +
          'Changes nothing.',
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
        description:
          `${WRITERS} ${OWNER_ONLY} Only the fields given change; null clears one; an ISRC is stored without ` +
          'hyphens. Sends the `track.updated` webhook event with the fields given.',
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
        description:
          `${SESSION_WRITERS} ${OWNER_ONLY} soft: the track leaves lists and search and can ` +
          'be restored (POST .../restore) until it is purged after the retention period; a soft-deleted track ' +
          'is 404 to a second soft delete. hard (also on a soft-deleted track): the track, its versions, ' +
          'comments, stems and every file are removed at once. Sends the `track.deleted` webhook event with ' +
          'the mode.',
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
        description:
          `${SESSION_WRITERS} ${OWNER_ONLY} The track returns to lists and search. 409 when ` +
          'the track is not deleted; 404 once it was purged or hard-deleted. Sends the `track.restored` ' +
          'webhook event.',
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
        description:
          `${SESSION_WRITERS} ${OWNER_ONLY} A status that is not a track status of the owning team is 400. ` +
          'Setting the status the track has keeps its place. A status whose `requires` the track does not ' +
          'meet (approvals of its current version by people with the listed roles) is 409 ' +
          '`approval_required`, naming the status, what it asks and what the track has; nothing changes. ' +
          'Sends the `track.status_changed` webhook event (from and to; equal when it did not move).',
        params: IdParams,
        body: StatusBody,
        response: {
          200: TrackDetail,
          ...approvalRequiredResponse('approval_required: the status asks for approvals the track lacks'),
        },
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
          `(of the owning team, tracks:write) only its own team can be named. ${SHARING_RULE} Sends the ` +
          '`track.shared` webhook event to the owning team only, and only when the share is new.',
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
          `team itself cannot be unshared (400); a team the track is not shared with is 404. ${SHARING_RULE} ` +
          'The track also leaves the albums of that team. Sends the `track.unshared` webhook event to the ' +
          'owning team only.',
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
        description:
          `${WRITERS} ${OWNER_ONLY} The platform is stored lower-cased. Answers the new link (201); recorded ` +
          "in the team's activity as `track.reference_added` (no webhook).",
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
        description:
          `${WRITERS} ${OWNER_ONLY} Answers the new link (201); recorded in the team's activity as ` +
          '`track.inspiration_added` (no webhook).',
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
