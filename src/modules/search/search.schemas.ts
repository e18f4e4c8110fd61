import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';
import { SEARCH_KINDS } from './search-kinds.ts';

/** A comma-separated list of kinds (written out: patterns are checked for linear-time matching). */
export const KINDS_PATTERN =
  '^(?:track|album|comment|todo|message|transcript|contact|session|interview)' +
  '(?:,(?:track|album|comment|todo|message|transcript|contact|session|interview))*$';

export const SearchQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: 120,
    description:
      'Words to find (at most the first 10 count); each matches as a word prefix, case and accents ignored, ' +
      'and every word must match. Anything but letters and digits separates words.',
    examples: ['night drive'],
  }),
  teamId: Type.Optional({
    ...Id,
    description: "Only this team's data; without it, every team of the caller (a key: its own team)",
  }),
  kinds: Type.Optional(
    Type.String({
      maxLength: 200,
      pattern: KINDS_PATTERN,
      description: `Only these kinds, comma-separated (${SEARCH_KINDS.join(', ')}); default every kind the caller reads`,
      examples: ['message,transcript,comment'],
    }),
  ),
  ...PageQuery,
});

const HIT_EXAMPLE = {
  kind: 'comment',
  id: 4512,
  teamId: 7,
  title: 'Night Drive',
  snippet: 'The synth in the second chorus is too loud',
  highlights: [{ start: 4, length: 5 }],
  link: { href: '/api/v1/tracks/101/versions/230/comments' },
  score: 0.097,
  at: '2025-03-14T09:26:53.000Z',
};

export const SearchHit = Type.Object(
  {
    kind: StringEnum(SEARCH_KINDS, { description: 'What was found' }),
    id: Type.Union([Id, Uuid], { description: 'The id of what was found (chat messages: a UUID)' }),
    teamId: {
      ...Id,
      description: 'The team that holds it (a track shared with the caller: its owning team)',
    },
    title: Type.String({
      description:
        'Its title or name; for comments and to-dos the title of their track, for chat the name of the thread',
    }),
    snippet: Type.String({ description: 'The matching text around the first match (… where cut)' }),
    highlights: Type.Array(
      Type.Object({ start: Type.Integer({ minimum: 0 }), length: Type.Integer({ minimum: 1 }) }),
      { description: 'Matched words in the snippet, as UTF-16 offsets' },
    ),
    link: Type.Object(
      {
        href: Type.String({
          description: 'Path of the API resource (comments, to-dos, messages: their list)',
        }),
      },
      { description: 'Where to read it' },
    ),
    score: Type.Number({ description: 'Relevance times the weight of its kind; higher is better' }),
    at: {
      ...Timestamp,
      description: 'When it was last changed (messages, comments, to-dos: written; sessions: start)',
    },
  },
  { title: 'SearchHit', examples: [HIT_EXAMPLE] },
);

export const SearchResults = Type.Object(
  {
    items: Page(SearchHit).properties.items,
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'The next page, by score: pass it as cursor with the same q, teamId and kinds',
    }),
  },
  { title: 'SearchResults', examples: [{ items: [HIT_EXAMPLE], nextCursor: null }] },
);
