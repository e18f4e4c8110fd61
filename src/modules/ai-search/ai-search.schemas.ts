import { type TObject, type TOptional, type TProperties, Type } from '@sinclair/typebox';
import { ALBUM_TYPES } from '../../db/schema/index.ts';
import { Id, Timestamp } from '../../shared/schemas.ts';
import { FILTER_NAMES, MATCH_HOWS } from './interpretation.ts';
import { SEARCH_KINDS, type SearchKind, type VocabularyField } from './kinds.ts';
import { TEMPO_WORDS } from './lexicon.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const VOCABULARY_DESCRIPTIONS: Record<VocabularyField, string> = {
  artists: 'Artist names the answer may use',
  distributors: 'Distributor names the answer may use',
  genres: 'Genres the answer may use, e.g. "Reggaeton", "Drum & Bass"',
  labels: 'Label names the answer may use',
  languages: 'Languages the answer may use, as codes ("es") or names ("Spanish")',
  tags: 'Tags the answer may use',
};

const Term = Type.String({ minLength: 1, maxLength: 200 });

function vocabularyOf(kind: SearchKind) {
  const fields = SEARCH_KINDS[kind].fields;
  return Type.Object(
    Object.fromEntries(
      fields.map((f) => [
        f,
        Type.Optional(Type.Array(Term, { maxItems: 2000, description: VOCABULARY_DESCRIPTIONS[f] })),
      ]),
    ) as TProperties,
    {
      description:
        `The values filters may take, per list (${fields.join(', ')}); a list left out is empty. ` +
        'Filter values in the answer are always spelled as here.',
    },
  );
}

export const QUERY_LIMITS = { minLength: 1, maxLength: 500 };

function bodyOf(kind: SearchKind, options: { title: string; examples: unknown[] }) {
  return Type.Object(
    {
      query: Type.String({
        ...QUERY_LIMITS,
        pattern: '\\S',
        description: 'The search as a person writes it, e.g. "Spanish reggaeton from 2023 without features"',
      }),
      vocabulary: vocabularyOf(kind),
      teamId: Type.Optional({
        ...Id,
        description: `Extension: also run the filters over this team's ${kind} and answer them in results`,
      }),
      // No schema default: a default would hide whether limit was sent without teamId.
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 200,
          description: 'Extension: results per page (with teamId), 50 when left out',
        }),
      ),
      cursor: Type.Optional(
        Type.String({
          maxLength: 512,
          description: 'Extension: nextCursor of the previous page (with teamId)',
        }),
      ),
    },
    options,
  );
}

const TRACKS_QUERY = 'Spanish reggaeton from 2023 around 95 bpm without features';
const ALBUMS_QUERY = 'Luna Vale EPs from 2025 not released';

export const TracksSearchBody = bodyOf('tracks', {
  title: 'AiTrackSearch',
  examples: [
    {
      query: TRACKS_QUERY,
      vocabulary: {
        genres: ['Reggaeton', 'Drum & Bass'],
        languages: ['es', 'en'],
        tags: ['features', 'radio edit'],
      },
      teamId: 7,
      limit: 20,
    },
  ],
});
export const AlbumsSearchBody = bodyOf('albums', {
  title: 'AiAlbumSearch',
  examples: [
    { query: ALBUMS_QUERY, vocabulary: { artists: ['Luna Vale'], genres: ['Synthwave'] }, teamId: 7 },
  ],
});

const boundsOf = ({ min, max }: { min: number | null; max: number | null }) =>
  min === null ? `up to ${max}` : max === null ? `${min} and up` : `${min}-${max}`;
const TEMPO_WORDS_DESCRIPTION = TEMPO_WORDS.map((w) => `"${w.forms[0]}" (${boundsOf(w.range)})`).join(', ');

const ListFilter = Type.Object({
  include: Type.Array(Type.String(), { description: 'Any of these (tags: all of these)' }),
  exclude: Type.Array(Type.String(), { description: 'None of these' }),
});
const TypesFilter = Type.Object(ListFilter.properties, {
  description: `Release types (${ALBUM_TYPES.join(', ')}), from words such as "EPs", "singles", "LP", "best of"; always present for albums`,
});

const Range = Type.Object(
  { min: Nullable(Type.Number()), max: Nullable(Type.Number()) },
  { description: 'Inclusive bounds; null is open' },
);

function filtersOf(kind: SearchKind) {
  const { fields, tempo, releaseTypes } = SEARCH_KINDS[kind];
  return Type.Object({
    ...(Object.fromEntries(fields.map((f) => [f, ListFilter])) as TProperties),
    statuses: Type.Object(ListFilter.properties, { description: 'Status ids of the board searched' }),
    // Typed as always there (and optional) so that the answer's type checks for both kinds.
    ...((releaseTypes ? { types: Type.Optional(TypesFilter) } : {}) as {
      types: TOptional<typeof TypesFilter>;
    }),
    year: Nullable(Type.Object(Range.properties, { description: 'Release year, inclusive' })),
    ...(tempo
      ? {
          bpm: Nullable(
            Type.Object(Range.properties, {
              description: `Tempo in whole BPM; the words ${TEMPO_WORDS_DESCRIPTION}`,
            }),
          ),
        }
      : {}),
    text: Type.Object(ListFilter.properties, {
      description:
        'Words outside the vocabulary, as typed: each included word must appear in the title or artist',
    }),
  });
}

const Match = Type.Object({
  filter: Type.Union(FILTER_NAMES.map((f) => Type.Literal(f))),
  value: Type.Optional(
    Type.String({ description: 'The list value (vocabulary spelling, status id, or text word)' }),
  ),
  range: Type.Optional(Range),
  negated: Type.Boolean({ description: 'Whether it excludes' }),
  words: Type.Array(Type.String(), { description: 'The parts of the query that produced it, as typed' }),
  how: Type.Union(
    MATCH_HOWS.map((h) => Type.Literal(h)),
    {
      description:
        'exact, synonym, fuzzy (typo), pattern (numbers, tempo words), text (free word), llm (language model)',
    },
  ),
});

const NONE = { include: [], exclude: [] };

const TRACK_RESULT_EXAMPLE = {
  id: 101,
  teamId: 7,
  title: 'Noche Lenta',
  artist: 'Luna Vale',
  genre: 'Reggaeton',
  language: 'es',
  tags: ['radio edit'],
  label: null,
  distributor: null,
  bpm: 94,
  releaseDate: '2023-06-09',
  statusId: 'released',
  updatedAt: '2026-03-14T09:30:00.000Z',
};

const ALBUM_RESULT_EXAMPLE = {
  id: 12,
  teamId: 7,
  title: 'Night Drives',
  artist: 'Luna Vale',
  type: 'ep',
  genre: 'Synthwave',
  language: 'en',
  tags: [],
  label: null,
  releaseDate: '2025-11-21',
  statusId: 'ready',
  updatedAt: '2026-03-14T09:30:00.000Z',
};

const TrackResult = Type.Object(
  {
    id: Id,
    teamId: Id,
    title: Type.String(),
    artist: Nullable(Type.String()),
    genre: Nullable(Type.String()),
    language: Nullable(Type.String()),
    tags: Type.Array(Type.String()),
    label: Nullable(Type.String()),
    distributor: Nullable(Type.String()),
    bpm: Nullable(Type.Number()),
    releaseDate: Nullable(Type.String({ format: 'date' })),
    statusId: Type.String(),
    updatedAt: Timestamp,
  },
  { title: 'AiSearchTrack', examples: [TRACK_RESULT_EXAMPLE] },
);

const AlbumResult = Type.Object(
  {
    id: Id,
    teamId: Id,
    title: Type.String(),
    artist: Nullable(Type.String()),
    type: Type.Union(ALBUM_TYPES.map((t) => Type.Literal(t))),
    genre: Nullable(Type.String()),
    language: Nullable(Type.String()),
    tags: Type.Array(Type.String()),
    label: Nullable(Type.String()),
    releaseDate: Nullable(Type.String({ format: 'date' })),
    statusId: Type.String(),
    updatedAt: Timestamp,
  },
  { title: 'AiSearchAlbum', examples: [ALBUM_RESULT_EXAMPLE] },
);

function answerOf(kind: SearchKind, item: TObject, options: { title: string; examples: unknown[] }) {
  return Type.Object(
    {
      provider: Type.Union([Type.Literal('parser'), Type.Literal('llm')], {
        description: 'Who read the query: the built-in parser or the configured language model',
      }),
      fallback: Type.Optional(
        Type.Union([Type.Literal('timeout'), Type.Literal('error'), Type.Literal('invalid')], {
          description: 'Present when a language model is configured but the parser answered, and why',
        }),
      ),
      filters: filtersOf(kind),
      matches: Type.Array(Match, {
        description: 'Every filter value with the words that produced it, in query order',
      }),
      ignored: Type.Array(Type.Object({ words: Type.Array(Type.String()), reason: Type.String() }), {
        description:
          'Parts understood but not turned into a filter, and words left as text because the query used up its typo-matching budget',
      }),
      results: Type.Optional(
        Type.Object(
          { items: Type.Array(item), nextCursor: Nullable(Type.String()) },
          { description: 'Extension, with teamId: the matching items, most recently updated first' },
        ),
      ),
    },
    options,
  );
}

export const TracksSearchAnswer = answerOf('tracks', TrackResult, {
  title: 'AiTrackSearchResult',
  examples: [
    {
      provider: 'parser',
      filters: {
        distributors: NONE,
        genres: { include: ['Reggaeton'], exclude: [] },
        labels: NONE,
        languages: { include: ['es'], exclude: [] },
        tags: { include: [], exclude: ['features'] },
        statuses: NONE,
        year: { min: 2023, max: 2023 },
        bpm: { min: 90, max: 100 },
        text: NONE,
      },
      matches: [
        { filter: 'languages', value: 'es', negated: false, words: ['Spanish'], how: 'synonym' },
        { filter: 'genres', value: 'Reggaeton', negated: false, words: ['reggaeton'], how: 'exact' },
        {
          filter: 'year',
          range: { min: 2023, max: 2023 },
          negated: false,
          words: ['from 2023'],
          how: 'pattern',
        },
        {
          filter: 'bpm',
          range: { min: 90, max: 100 },
          negated: false,
          words: ['around 95 bpm'],
          how: 'pattern',
        },
        { filter: 'tags', value: 'features', negated: true, words: ['without', 'features'], how: 'exact' },
      ],
      ignored: [],
      results: { items: [TRACK_RESULT_EXAMPLE], nextCursor: null },
    },
  ],
});
export const AlbumsSearchAnswer = answerOf('albums', AlbumResult, {
  title: 'AiAlbumSearchResult',
  examples: [
    {
      provider: 'parser',
      filters: {
        artists: { include: ['Luna Vale'], exclude: [] },
        genres: NONE,
        labels: NONE,
        languages: NONE,
        tags: NONE,
        statuses: { include: [], exclude: ['released'] },
        types: { include: ['ep'], exclude: [] },
        year: { min: 2025, max: 2025 },
        text: NONE,
      },
      matches: [
        { filter: 'artists', value: 'Luna Vale', negated: false, words: ['Luna Vale'], how: 'exact' },
        { filter: 'types', value: 'ep', negated: false, words: ['EPs'], how: 'exact' },
        {
          filter: 'year',
          range: { min: 2025, max: 2025 },
          negated: false,
          words: ['from 2025'],
          how: 'pattern',
        },
        { filter: 'statuses', value: 'released', negated: true, words: ['not', 'released'], how: 'exact' },
      ],
      ignored: [],
      results: { items: [ALBUM_RESULT_EXAMPLE], nextCursor: null },
    },
  ],
});
