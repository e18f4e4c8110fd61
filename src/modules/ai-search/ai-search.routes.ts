import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import {
  AlbumsSearchAnswer,
  AlbumsSearchBody,
  TracksSearchAnswer,
  TracksSearchBody,
} from './ai-search.schemas.ts';
import { MATCH_LIMITS } from './match-budget.ts';
import { VOCABULARY_LIMITS } from './vocabulary-limits.ts';

const anyToken = { config: { auth: auth.anyToken } } as const;

const DESCRIPTION =
  'Any valid token: a session or an API key (no scope; a key may name only its own team in teamId). ' +
  'Changes nothing. ' +
  'Reads a search sentence into structured filters drawn only from the given vocabulary, plus release years, ' +
  'statuses, negations ("without", "not", "no", "excluding") and free-text words; every value comes with ' +
  'the words that produced it. The built-in parser works offline (case, accents, plurals, small typos, ' +
  'synonyms such as "castellano" for Spanish or "dnb" for drum and bass); when a language model is ' +
  'configured it reads the query instead, its answer is checked against the vocabulary, and the parser ' +
  'answers whenever it is slow, fails or answers something unusable. With teamId (extension) the filters ' +
  "are also run over that team's items (the caller must belong to the team; another team is 404). " +
  `Typo matching has a cost limit: of each vocabulary list the parser reads at most ${VOCABULARY_LIMITS.phrases} values ` +
  `and ${VOCABULARY_LIMITS.characters} characters (past that, the values sent most often, then the shortest), and ` +
  `one query gets at most ${MATCH_LIMITS.comparisons} typo comparisons and ${MATCH_LIMITS.milliseconds} ms; words it ` +
  'could not compare in time are kept as text and listed under ignored.';

/** Natural-language search over tracks and albums. */
export async function aiSearchRoutes(app: App) {
  const service = app.services.aiSearch;

  app.post(
    '/api/v1/ai-search/tracks',
    {
      ...anyToken,
      schema: {
        operationId: 'aiSearch.tracks',
        summary: 'Read a search sentence into track filters (and, with teamId, find the tracks)',
        description: `${DESCRIPTION} Tracks also understand tempo ("around 120 bpm", "faster than 128 bpm", "slow", "mid-tempo", "uptempo").`,
        body: TracksSearchBody,
        response: { 200: TracksSearchAnswer },
      },
    },
    async (request) => service.search(principalOf(request), 'tracks', request.body, request.log),
  );

  app.post(
    '/api/v1/ai-search/albums',
    {
      ...anyToken,
      schema: {
        operationId: 'aiSearch.albums',
        summary: 'Read a search sentence into album filters (and, with teamId, find the albums)',
        description: `${DESCRIPTION} Albums also understand release types ("EPs", "singles", "LP", "best of"); they have no tempo: tempo phrases are listed under ignored.`,
        body: AlbumsSearchBody,
        response: { 200: AlbumsSearchAnswer },
      },
    },
    async (request) => service.search(principalOf(request), 'albums', request.body, request.log),
  );
}
