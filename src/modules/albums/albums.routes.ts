import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { acceptOlderNames } from '../../shared/older-names.ts';
import { wantsTotal } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { approvalRequiredResponse } from '../teams/status-config.approval-error.ts';
import {
  AlbumDetail,
  AlbumLinks,
  AlbumListQuery,
  AlbumOrder,
  AlbumPage,
  AlbumPatchBody,
  AlbumReorderBody,
  CreateAlbumBody,
  StatusBody,
  TeamQuery,
} from './albums.schemas.ts';
import {
  ALBUM_READERS,
  ALBUM_SESSION_WRITERS,
  ALBUM_WRITERS,
  read,
  session,
  writeExtension,
} from './route-auth.ts';

/** Albums themselves: list, links, read, create, change, delete, status and board order. */
export async function albumsRoutes(app: App) {
  const albums = app.services.albums;

  app.get(
    '/api/v1/albums/',
    {
      ...read,
      schema: {
        operationId: 'albums.list',
        summary: 'List the albums of a team, most recently updated first or in board order',
        description:
          'Keyset pagination with cursor; offset (as the specification names it) works too and then the ' +
          'answer adds total. cursor and offset together are 400, and so is a status that is not an album ' +
          'status of the team. Any member of the team (every role), or an API key of it (no scope needed); ' +
          'a team the caller is not in is 404. Changes nothing.',
        querystring: AlbumListQuery,
        response: { 200: AlbumPage },
      },
    },
    async (request) => {
      const { limit, count, ...query } = request.query;
      return albums.list(principalOf(request), {
        ...query,
        limit: limit ?? 50,
        count: wantsTotal({ count }),
      });
    },
  );

  app.get(
    '/api/v1/albums/links',
    {
      ...read,
      schema: {
        operationId: 'albums.links',
        summary: 'Which tracks each album of the team holds, and which albums each of those tracks is on',
        description:
          'The whole team in one answer (no pages); soft-deleted tracks are left out. Any member of the team ' +
          '(every role), or an API key of it (no scope needed); a team the caller is not in is 404. Changes ' +
          'nothing.',
        querystring: TeamQuery,
        response: { 200: AlbumLinks },
      },
    },
    async (request) => albums.links(principalOf(request), request.query.teamId),
  );

  app.post(
    '/api/v1/albums/',
    {
      ...writeExtension,
      schema: {
        operationId: 'albums.create',
        summary: "Create an album at the end of the team's first album status (idea)",
        description:
          'A session of any member of `teamId` (every role), or an API key of that team with ' +
          '`albums:write` (403 insufficient_scope without it); a team the caller is not in is 404. Answers ' +
          'the album (201) with no tracks and no cover; sends the `album.created` webhook event.',
        body: CreateAlbumBody,
        response: { 201: AlbumDetail },
      },
    },
    async (request, reply) => reply.code(201).send(await albums.create(principalOf(request), request.body)),
  );

  app.post(
    '/api/v1/albums/reorder',
    {
      ...session,
      ...acceptOlderNames,
      schema: {
        operationId: 'albums.reorder',
        summary: 'Reorder the albums of one status column (all of them, each once)',
        description:
          'albumOrders (or album_orders) must be a permutation of the albums of the status in their team: a repeated or ' +
          'foreign album id, a repeated order, or a missing album is 400. Applied atomically; positions ' +
          'become 0..n-1 in the order given. A status_id that is not an album status of the team is 400; ' +
          'when the caller sees none of the albums: 404. Session only (an API key gets 403 ' +
          "session_required): any member of the team (every role). Recorded in the team's activity as " +
          '`albums.reordered` (no webhook).',
        body: AlbumReorderBody,
        response: { 200: AlbumOrder },
      },
    },
    async (request) => albums.reorder(principalOf(request), request.body.statusId, request.body.albumOrders),
  );

  app.get(
    '/api/v1/albums/:id',
    {
      ...read,
      schema: {
        operationId: 'albums.get',
        summary: 'An album with its cover (signed links) and its tracks in order',
        description:
          `${ALBUM_READERS} Soft-deleted tracks are left out of \`tracks\`. The cover links are signed ` +
          'and expire. Changes nothing.',
        params: IdParams,
        response: { 200: AlbumDetail },
      },
    },
    async (request) => albums.get(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/albums/:id',
    {
      ...writeExtension,
      schema: {
        operationId: 'albums.update',
        summary: "Change an album's catalogue fields",
        description:
          `${ALBUM_WRITERS} Only the fields given change; null clears one. Sends the \`album.updated\` ` +
          'webhook event with the fields given.',
        params: IdParams,
        body: AlbumPatchBody,
        response: { 200: AlbumDetail },
      },
    },
    async (request) => albums.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/albums/:id',
    {
      ...session,
      schema: {
        operationId: 'albums.delete',
        summary: 'Delete an album and its cover; its tracks stay',
        description:
          `${ALBUM_SESSION_WRITERS} The albums after it in its status column move up. An open cover upload ` +
          'of the album can no longer be registered. Sends the `album.deleted` webhook event.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await albums.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/v1/albums/:id/status',
    {
      ...session,
      schema: {
        operationId: 'albums.status.update',
        summary: "Move an album to another status of its team's configuration (at the end of that column)",
        description:
          `A status that is not one of the album statuses of the team is 400. ${ALBUM_SESSION_WRITERS} ` +
          'Setting the status the album has keeps its place. A status whose `requires` is not met by every ' +
          'track on the album is 409 `approval_required`, naming the tracks short of approvals; nothing ' +
          'changes. Sends the `album.status_changed` webhook event (from and to; equal when it did not move).',
        params: IdParams,
        body: StatusBody,
        response: {
          200: AlbumDetail,
          ...approvalRequiredResponse(
            'approval_required: the status asks for approvals some tracks on the album lack',
          ),
        },
      },
    },
    async (request) => albums.changeStatus(principalOf(request), request.params.id, request.body.status),
  );
}
