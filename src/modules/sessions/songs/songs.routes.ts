import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { MEMBERS, READERS, SESSION_ONLY, session, sessionExtension } from '../route-auth.ts';
import { SessionParams, TeamPageQuery } from '../sessions.schemas.ts';
import { AddSongBody, RemoveSongQuery, Song, SongPage, SongParams } from './songs.schemas.ts';

/** Songs of a session: tracks of the team worked on in it. */
export async function songsRoutes(app: App) {
  const songs = app.services.sessionSongs;

  app.get(
    '/api/v1/sessions/:sessionId/songs',
    {
      ...session,
      schema: {
        operationId: 'sessions.songs.list',
        summary: 'Tracks of the team linked to the session, in the order they were added',
        description:
          `${SESSION_ONLY} ${READERS} teamId must be the session's team (else 404). Deleted tracks and ` +
          'tracks no longer shared with the team are left out. Keyset pages: pass nextCursor as cursor.',
        params: SessionParams,
        querystring: TeamPageQuery,
        response: { 200: SongPage },
      },
    },
    async (request) => {
      const { teamId, ...page } = request.query;
      return songs.list(principalOf(request), request.params.sessionId, teamId, pageOf(page));
    },
  );

  app.post(
    '/api/v1/sessions/:sessionId/songs',
    {
      ...sessionExtension,
      schema: {
        operationId: 'sessions.songs.add',
        summary: 'Link a track of the team to the session',
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). The track ` +
          'must be one the team holds (its own or shared with it), not deleted, else 404. 201 when linked ' +
          'now, 200 when it was linked already.',
        params: SessionParams,
        body: AddSongBody,
        response: { 200: Song, 201: Song },
      },
    },
    async (request, reply) => {
      const { song, created } = await songs.add(principalOf(request), request.params.sessionId, request.body);
      return reply.code(created ? 201 : 200).send(song);
    },
  );

  app.delete(
    '/api/v1/sessions/:sessionId/songs/:trackId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'sessions.songs.remove',
        summary: 'Unlink a track from the session (the track itself stays)',
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). 404 when ` +
          'the track is not linked to the session.',
        params: SongParams,
        querystring: RemoveSongQuery,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { sessionId, trackId } = request.params;
      await songs.remove(principalOf(request), sessionId, trackId, request.query.teamId);
      return reply.code(204).send(null);
    },
  );
}
