import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../shared/schemas.ts';
import {
  AddTracksBody,
  AlbumCollaborators,
  AlbumCollaboratorsQuery,
  AlbumTrackParams,
  TrackOrder,
  TrackReorderBody,
} from './album-tracks.schemas.ts';
import { AlbumDetail } from './albums.schemas.ts';
import { ALBUM_READERS, ALBUM_SESSION_WRITERS, read, session } from './route-auth.ts';

/** The tracks of an album: add, remove, reorder, and the collaborators across them. */
export async function albumTracksRoutes(app: App) {
  const albumTracks = app.services.albumTracks;

  app.get(
    '/api/v1/albums/:id/collaborators',
    {
      ...read,
      schema: {
        operationId: 'albums.collaborators.list',
        summary: "Everyone who worked on the album's tracks, once per person with all their roles",
        description:
          `${ALBUM_READERS} Merged from the collaborators of each track on the album (same user, else same ` +
          'e-mail, else same name). One answer, no pages. Changes nothing.',
        params: IdParams,
        querystring: AlbumCollaboratorsQuery,
        response: { 200: AlbumCollaborators },
      },
    },
    async (request) =>
      albumTracks.collaborators(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/api/v1/albums/:id/tracks',
    {
      ...session,
      schema: {
        operationId: 'albums.tracks.add',
        summary: 'Append tracks to the album, in the order given',
        description:
          "Each track must belong to the album's team or be shared with it. A repeated id, or a track that " +
          'is not (another team’s, missing or deleted), is 400 validation_failed naming its index; a track ' +
          'already on the album is 409 conflict, and so is an album that would pass 500 tracks. Nothing is ' +
          `added unless every track can be. ${ALBUM_SESSION_WRITERS} Answers the album; sends the ` +
          '`album.tracks_added` webhook event.',
        params: IdParams,
        body: AddTracksBody,
        response: {
          200: AlbumDetail,
          409: errorResponse('A track is already on the album, or the album is full'),
        },
      },
    },
    async (request) => albumTracks.add(principalOf(request), request.params.id, request.body.trackIds),
  );

  app.post(
    '/api/v1/albums/:id/tracks/reorder',
    {
      ...session,
      schema: {
        operationId: 'albums.tracks.reorder',
        summary: 'Reorder the tracks of the album (all of them, each once)',
        description:
          'trackOrders must be a permutation of the tracks on the album: a repeated or foreign track id, a ' +
          'repeated order or a missing track is 400 (soft-deleted tracks are not named and keep their place ' +
          `after the others). Applied atomically. ${ALBUM_SESSION_WRITERS} Recorded in the team's activity ` +
          'as `album.tracks_reordered` (no webhook).',
        params: IdParams,
        body: TrackReorderBody,
        response: { 200: TrackOrder },
      },
    },
    async (request) => albumTracks.reorder(principalOf(request), request.params.id, request.body.trackOrders),
  );

  app.delete(
    '/api/v1/albums/:id/tracks/:trackId',
    {
      ...session,
      schema: {
        operationId: 'albums.tracks.remove',
        summary: 'Take a track off the album (the track itself stays)',
        description:
          `${ALBUM_SESSION_WRITERS} A track that is not on the album is 404. The tracks after it move up. ` +
          'Sends the `album.track_removed` webhook event.',
        params: AlbumTrackParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await albumTracks.remove(principalOf(request), request.params.id, request.params.trackId);
      return reply.code(204).send(null);
    },
  );
}
