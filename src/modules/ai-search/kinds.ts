import type { StatusDefinition } from '../../db/schema/index.ts';
import { DEFAULT_STATUS_CONFIG } from '../teams/default-status-config.ts';
import type { SynonymField } from './lexicon.ts';

export const VOCABULARY_FIELDS = [
  'artists',
  'distributors',
  'genres',
  'labels',
  'languages',
  'tags',
] as const;
export type VocabularyField = (typeof VOCABULARY_FIELDS)[number];

/** What can be searched: the vocabulary lists each kind takes, and whether it has a tempo. */
export const SEARCH_KINDS = {
  tracks: {
    fields: ['distributors', 'genres', 'labels', 'languages', 'tags'],
    tempo: true,
    releaseTypes: false,
    // A team's board starts with these; "demo" is a stage many teams add, so the words are understood.
    defaultStatuses: [...DEFAULT_STATUS_CONFIG.tracks, { id: 'demo', name: 'Demo' }],
  },
  albums: {
    fields: ['artists', 'genres', 'labels', 'languages', 'tags'],
    tempo: false,
    releaseTypes: true,
    defaultStatuses: DEFAULT_STATUS_CONFIG.albums,
  },
} as const satisfies Record<
  string,
  {
    fields: readonly VocabularyField[];
    tempo: boolean;
    /** Whether the items have a release type (album, EP, single, compilation). */
    releaseTypes: boolean;
    defaultStatuses: readonly StatusDefinition[];
  }
>;
export type SearchKind = keyof typeof SEARCH_KINDS;

export type Vocabulary = Partial<Record<VocabularyField, readonly string[]>>;
export type StatusOption = { id: string; name: string };

/** What a phrase of a query can name: a value of a caller's list, a status, a release type or a tempo word. */
export type ListField = VocabularyField | 'statuses' | 'types' | 'tempo';

/** When one phrase names values of several lists, the first list here takes it. */
export const FIELD_PRIORITY: readonly ListField[] = [
  'languages',
  'genres',
  'types',
  'statuses',
  'artists',
  'labels',
  'distributors',
  'tags',
  'tempo',
];

export const SYNONYMS_OF: Partial<Record<VocabularyField | 'statuses', SynonymField>> = {
  languages: 'languages',
  genres: 'genres',
  tags: 'tags',
  statuses: 'statuses',
};
