import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { DEFAULT_PAGE_LIMIT } from '../../../shared/pagination.ts';
import { Id, PageQuery } from '../../../shared/schemas.ts';
import { hotRead } from '../route-auth.ts';
import { SEARCH_FIELDS } from './search.repository.ts';

const SearchQuery = Type.Object({
  q: Type.String({
    minLength: 2,
    maxLength: 120,
    description: 'Words to find; each matches as a word prefix',
  }),
  teamId: Id,
  ...PageQuery,
});

const HIT_EXAMPLE = {
  track: { id: 101, teamId: 7, title: 'Night Drive', artist: 'Luna Vale', statusId: 'mixing' },
  field: 'lyrics',
  rank: 0.61,
  snippet: 'City lights are calling me / down the empty boulevard',
  highlights: [{ start: 5, length: 6 }],
};

const SearchResults = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          track: Type.Object({
            id: Id,
            teamId: Id,
            title: Type.String(),
            artist: Type.Union([Type.String(), Type.Null()]),
            statusId: Type.String(),
          }),
          field: Type.Union(
            SEARCH_FIELDS.map((f) => Type.Literal(f)),
            { description: 'Where the best match of the track is' },
          ),
          rank: Type.Number({ description: 'Higher is better' }),
          snippet: Type.String({ description: 'The matching text around the first match (… where cut)' }),
          highlights: Type.Array(
            Type.Object({ start: Type.Integer({ minimum: 0 }), length: Type.Integer({ minimum: 1 }) }),
            { description: 'Matched words in the snippet, as UTF-16 offsets' },
          ),
        },
        { title: 'TrackSearchHit', examples: [HIT_EXAMPLE] },
      ),
      { description: 'One entry per track, best first' },
    ),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'The next page of hits, by rank: pass it as cursor with the same q and teamId',
    }),
  },
  { title: 'TrackSearchResults', examples: [{ items: [HIT_EXAMPLE], nextCursor: null }] },
);

/** Deep search over tracks. */
export async function searchRoutes(app: App) {
  app.get(
    '/api/v1/tracks/search/deep',
    {
      ...hotRead,
      schema: {
        operationId: 'tracks.search.deep',
        summary:
          "Full-text search over a team's tracks: titles, metadata, lyrics, notes, comments, to-dos, links",
        description:
          'Every word must match (as a word prefix); case and accents are ignored. Ranked by relevance and by ' +
          'field (title first). Soft-deleted tracks are left out; tracks shared with the team are included. ' +
          'Any member of the team (every role), or an API key of it (no scope needed); a team the caller is ' +
          'not in is 404. A q without any letter or digit is 400. Changes nothing.',
        querystring: SearchQuery,
        response: { 200: SearchResults },
      },
    },
    async (request) => {
      const { q, teamId, limit, cursor } = request.query;
      return app.services.trackSearch.deep(principalOf(request), {
        q,
        teamId,
        limit: limit ?? DEFAULT_PAGE_LIMIT,
        cursor,
      });
    },
  );
}
