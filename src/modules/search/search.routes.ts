import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { DEFAULT_PAGE_LIMIT } from '../../shared/pagination.ts';
import { SearchQuery, SearchResults } from './search.schemas.ts';

/** Any token; the statement itself confirms the session or key beside the hits (see `deferSessionCheck`). */
const hotReadExtension = {
  config: { auth: auth.keyOrSession(), deferSessionCheck: true, extension: true },
} as const;

/** The one search over everything a team holds. */
export async function searchRoutes(app: App) {
  app.get(
    '/api/v1/search',
    {
      ...hotReadExtension,
      schema: {
        operationId: 'search.everything',
        summary:
          'Search tracks, albums, comments, to-dos, chat messages, voice transcripts, contacts, studio sessions and interviews at once',
        description:
          'Full-text search ranked across kinds: every word must match as a word prefix (case and accents ' +
          'ignored); a title or name outranks catalogue fields, which outrank bodies, and each kind has a ' +
          'weight. Only what the caller may read is searched: a session searches its teams (or `teamId`), ' +
          'their tracks (shared ones too), albums, comments and to-dos, contacts, studio sessions, interviews, ' +
          'and the chat threads it sees: a group, direct or bot thread only while it is a chosen member, a team ' +
          'thread not once it left it (until a newer message brings it back to its list). An API key searches ' +
          "its own team's tracks, albums, comments, to-dos and contacts (no scope needed); naming another kind " +
          "in `kinds` gets 403 session_required. A `teamId` the caller is not in (or not the key's team) is " +
          '404. A `q` without any letter or digit is 400. Soft-deleted tracks and deleted messages are left ' +
          'out. Changes nothing.',
        querystring: SearchQuery,
        response: { 200: SearchResults },
      },
    },
    async (request) => {
      const { q, teamId, kinds, limit, cursor } = request.query;
      return app.services.search.search(principalOf(request), {
        q,
        teamId,
        kinds,
        limit: limit ?? DEFAULT_PAGE_LIMIT,
        cursor,
      });
    },
  );
}
