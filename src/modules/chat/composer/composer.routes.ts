import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { SESSION_ONLY, session } from '../route-auth.ts';
import {
  MentionCard,
  MentionContextQuery,
  MentionSearchQuery,
  MentionSearchResult,
  PeoplePage,
  PeopleQuery,
} from './composer.schemas.ts';

/** What the message composer asks for. */
export async function chatComposerRoutes(app: App) {
  const composer = app.services.chat.composer;

  app.get(
    '/api/v1/chat/mention-search',
    {
      ...session,
      schema: {
        operationId: 'chat.mentionSearch',
        summary: 'People, tracks, albums and contacts of a team to mention, by prefix',
        description:
          `${SESSION_ONLY} Members of the team (404 otherwise). ` +
          'Matches the start of a person’s name or e-mail, a track’s or album’s title, a contact’s name, in ' +
          'any case. At most limit items (default 50), taken from each kind in turn so every kind shows near ' +
          'the top; each kind alphabetically. Write a result into a message as @[label](kind:id).',
        querystring: MentionSearchQuery,
        response: { 200: MentionSearchResult },
      },
    },
    async (request) => composer.mentionSearch(principalOf(request), request.query),
  );

  app.get(
    '/api/v1/chat/people',
    {
      ...session,
      schema: {
        operationId: 'chat.people',
        summary: 'The people of a team the caller can write to',
        description:
          `${SESSION_ONLY} Members of the team (404 otherwise). Every member of the team but the caller, ` +
          'alphabetically by name (or e-mail). Keyset pages: pass nextCursor as cursor with the same teamId.',
        querystring: PeopleQuery,
        response: { 200: PeoplePage },
      },
    },
    async (request) => {
      const { teamId, limit, cursor } = request.query;
      return composer.people(principalOf(request), { teamId, ...pageOf({ limit, cursor }) });
    },
  );

  app.get(
    '/api/v1/chat/mention-context',
    {
      ...session,
      schema: {
        operationId: 'chat.mentionContext',
        summary: 'A card for one mention',
        description:
          `${SESSION_ONLY} Members of the team (404 otherwise). ` +
          'kind user takes a user UUID, the other kinds an integer id (400 otherwise). 404 when the team has ' +
          'no such person, track, album or contact.',
        querystring: MentionContextQuery,
        response: { 200: MentionCard },
      },
    },
    async (request) => composer.mentionContext(principalOf(request), request.query),
  );
}
