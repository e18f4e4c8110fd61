import type { Scenario } from './scenario.ts';

const GENRES = [
  'Reggaeton',
  'Hip Hop',
  'Drum & Bass',
  'R&B',
  'Jazz',
  'Rock',
  'Pop',
  'Latin Pop',
  'House',
  'Deep House',
  'Techno',
  'Trap',
  'Lo-Fi',
  'Soul',
  'Funk',
  'Disco',
  'Blues',
  'Country',
  'Folk',
  'Indie',
  'Metal',
  'Punk',
  'Dancehall',
  'Afrobeats',
  'Bossa Nova',
  'Salsa',
  'Bachata',
  'Cumbia',
  'K-Pop',
  'Ambient',
];
const LANGUAGES = [
  'es',
  'en',
  'fr',
  'de',
  'it',
  'pt',
  'pt-BR',
  'ja',
  'ko',
  'zh',
  'ca',
  'nl',
  'sv',
  'pl',
  'tr',
];

/** A vocabulary the size of a busy team's: every list filled, 100 tags, 40 labels. */
export function benchVocabulary() {
  return {
    genres: GENRES,
    languages: LANGUAGES,
    tags: Array.from({ length: 100 }, (_, i) => `tag ${i}`).concat(['feat', 'vocals', 'chill', 'summer']),
    labels: Array.from({ length: 40 }, (_, i) => `Label Number ${i}`),
    distributors: ['DistroKid', 'TuneCore', 'CD Baby', 'AWAL', 'Believe', 'Amuse'],
  };
}

export const BENCH_QUERY = 'Spanish reggaeton from 2023 without features, around 95 bpm, not in mixing';

/** AI search read by the built-in parser (no team, so no database beyond authentication). */
export function aiSearchScenarios(apiKey: string): Scenario[] {
  return [
    {
      name: 'AI search parse (API key)',
      path: '/api/v1/ai-search/tracks',
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ query: BENCH_QUERY, vocabulary: benchVocabulary() }),
    },
  ];
}
