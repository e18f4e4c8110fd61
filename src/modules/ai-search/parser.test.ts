import { describe, expect, it } from 'vitest';
import type { Interpretation, ListFilter } from './interpretation.ts';
import { SEARCH_KINDS, type SearchKind, type StatusOption, type Vocabulary } from './kinds.ts';
import { parseQuery } from './parser.ts';

const TODAY = new Date('2026-06-01T12:00:00Z');

const TRACKS: Vocabulary = {
  genres: [
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
    'Blues',
    'Rap',
    'Lo-Fi',
    'Trap',
    'Techno',
    'Bossa Nova',
    'Singer-Songwriter',
    'Classical',
  ],
  languages: ['es', 'en', 'fr', 'pt-BR', 'it', 'de'],
  tags: ['feat', 'vocals', 'chill', 'summer', 'explicit', 'acoustic', 'remix'],
  labels: ['Sony Music', 'Warner Records', 'Independiente', 'Warp Records'],
  distributors: ['DistroKid', 'TuneCore', 'CD Baby', 'AWAL', 'The Orchard'],
};

const ALBUMS: Vocabulary = {
  artists: ['Rosalía', 'Bad Bunny', 'J Balvin'],
  genres: ['Flamenco', 'Reggaeton', 'Pop'],
  labels: ['Columbia', 'Rimas Entertainment'],
  languages: ['Spanish', 'English', 'Portuguese'],
  tags: ['feat', 'deluxe'],
};

/**
 * A compact view of what a query means: `genres` for included values, `-genres` for excluded ones,
 * ranges as [min, max]; empty filters are left out.
 */
type Summary = Record<string, string[] | [number | null, number | null]>;

function summary({ filters }: Interpretation): Summary {
  const out: Summary = {};
  for (const [name, value] of Object.entries(filters)) {
    if (value === null || value === undefined) continue;
    if ('include' in value) {
      const list = value as ListFilter;
      if (list.include.length) out[name] = list.include;
      if (list.exclude.length) out[`-${name}`] = list.exclude;
    } else out[name] = [value.min, value.max];
  }
  return out;
}

function read(query: string, kind: SearchKind = 'tracks', extra: { statuses?: StatusOption[] } = {}) {
  return parseQuery({
    kind,
    query,
    vocabulary: kind === 'tracks' ? TRACKS : ALBUMS,
    statuses: extra.statuses ?? SEARCH_KINDS[kind].defaultStatuses,
    today: TODAY,
  });
}

const TRACK_SENTENCES: [string, Summary][] = [
  // the example of the brief, and variations of genre spelling
  [
    'Spanish reggaeton from 2023 without features',
    { languages: ['es'], genres: ['Reggaeton'], year: [2023, 2023], '-tags': ['feat'] },
  ],
  ['Reggaetón', { genres: ['Reggaeton'] }],
  ['EXPLICIT RAP', { genres: ['Rap'], tags: ['explicit'] }],
  ['rap', { genres: ['Rap'] }],
  ['hip hop, rap', { genres: ['Hip Hop', 'Rap'] }],
  ['hiphop around 120 bpm', { genres: ['Hip Hop'], bpm: [115, 125] }],
  ['hip-hop between 90 and 100 bpm', { genres: ['Hip Hop'], bpm: [90, 100] }],
  ['HIP HOP faster than 128 bpm', { genres: ['Hip Hop'], bpm: [129, null] }],
  ['dnb 170-175bpm', { genres: ['Drum & Bass'], bpm: [170, 175] }],
  ['drum and bass, not in english', { genres: ['Drum & Bass'], '-languages': ['en'] }],
  ['drum n bass from the late 90s', { genres: ['Drum & Bass'], year: [1997, 1999] }],
  ['rnb from the 90s', { genres: ['R&B'], year: [1990, 1999] }],
  ['R & B slower than 80 bpm', { genres: ['R&B'], bpm: [null, 79] }],
  ['deep house', { genres: ['Deep House'] }],
  ['lofi beats for studying', { genres: ['Lo-Fi'] }],
  ['singer songwriter acoustic', { genres: ['Singer-Songwriter'], tags: ['acoustic'] }],
  ['bossa novas', { genres: ['Bossa Nova'] }],
  // typos, scaled by length; short words only by a doubled letter written once
  ['deep hosue', { genres: ['Deep House'] }],
  ['regaeton', { genres: ['Reggaeton'] }],
  ['raggaeton 2020', { genres: ['Reggaeton'], year: [2020, 2020] }],
  ['tehcno', { genres: ['Techno'] }],
  ['jaz', { genres: ['Jazz'] }],
  ['jaz from 2019', { genres: ['Jazz'], year: [2019, 2019] }],
  ['chil', { tags: ['chill'] }],
  ['popp, rapp', { genres: ['Pop', 'Rap'] }],
  ['hose', { text: ['hose'] }],
  ['rok', { text: ['rok'] }],
  // fillers: words about the catalogue that no title needs to contain
  ['top hits', { text: ['top'] }],
  ['summer vibes and bangers', { tags: ['summer'] }],
  ['chill jams still in mixing', { tags: ['chill'], statuses: ['mixing'] }],
  ['acoustic versions of love songs', { tags: ['acoustic'], text: ['love'] }],
  ['lyrics about heartbreak', { text: ['heartbreak'] }],
  ['techno records from the mixing stage', { genres: ['Techno'], statuses: ['mixing'] }],
  ['house tunes, remix content', { genres: ['House'], tags: ['remix'] }],
  ['music for studying', {}],
  // languages by name, endonym, code and case
  ['latin pop en español', { genres: ['Latin Pop'], languages: ['es'] }],
  ['canciones en castellano sin features', { languages: ['es'], '-tags': ['feat'] }],
  ['IT house tracks', { languages: ['it'], genres: ['House'] }],
  ['it is house', { genres: ['House'] }],
  ['Brazilian Portuguese bossa nova', { languages: ['pt-BR'], genres: ['Bossa Nova'] }],
  ['non-english trap', { '-languages': ['en'], genres: ['Trap'] }],
  ['francais ou deutsch', { languages: ['fr', 'de'], text: ['ou'] }],
  // negations
  ['no jazz or blues', { '-genres': ['Jazz', 'Blues'] }],
  ['not jazz and blues', { '-genres': ['Jazz', 'Blues'] }],
  ['excluding rock, from 2019-2021', { '-genres': ['Rock'], year: [2019, 2021] }],
  ['without vocals and spanish', { '-tags': ['vocals'], languages: ['es'] }],
  ['no features, no remix', { '-tags': ['feat', 'remix'] }],
  ['trap but not explicit', { genres: ['Trap'], '-tags': ['explicit'] }],
  ['other than jazz', { '-genres': ['Jazz'] }],
  ['without heavy guitars', { '-text': ['heavy', 'guitars'] }],
  ["instrumental tracks that aren't jazz", { text: ['instrumental'], '-genres': ['Jazz'] }],
  ['house that isnt explicit', { genres: ['House'], '-tags': ['explicit'] }],
  ["songs that don't have vocals", { '-tags': ['vocals'] }],
  ["pop that wasn't released", { genres: ['Pop'], '-statuses': ['released'] }],
  ['everything but Sony releases', { '-labels': ['Sony Music'] }],
  ['everything except remixes', { '-tags': ['remix'] }],
  ['all but jazz', { '-genres': ['Jazz'] }],
  ['neither jazz nor blues', { '-genres': ['Jazz', 'Blues'] }],
  ['jazz, nothing by sony', { genres: ['Jazz'], '-labels': ['Sony Music'] }],
  ['nothing but jazz', { genres: ['Jazz'] }],
  [
    'instrumental hip hop without vocals',
    { text: ['instrumental'], genres: ['Hip Hop'], '-tags': ['vocals'] },
  ],
  // labels, distributors, tags
  ['summer chill tracks with vocals', { tags: ['summer', 'chill', 'vocals'] }],
  ['tracks on cd baby', { distributors: ['CD Baby'] }],
  ['sony music explicit', { labels: ['Sony Music'], tags: ['explicit'] }],
  ['warner records, not explicit', { labels: ['Warner Records'], '-tags': ['explicit'] }],
  ['independiente label 2015 onwards', { labels: ['Independiente'], year: [2015, null] }],
  ['distrokid releases from 2022', { distributors: ['DistroKid'], year: [2022, 2022] }],
  // a label or distributor by its distinctive words
  ['dnb tracks on Warp', { genres: ['Drum & Bass'], labels: ['Warp Records'] }],
  ['songs after 2022 on Sony', { year: [2023, null], labels: ['Sony Music'] }],
  ['the orchard but not on sony', { distributors: ['The Orchard'], '-labels': ['Sony Music'] }],
  ['warner, no remixes', { labels: ['Warner Records'], '-tags': ['remix'] }],
  ['releases on warp records from the 2020s', { labels: ['Warp Records'], year: [2020, 2029] }],
  // statuses (default board)
  ['songs in mixing or mastering', { statuses: ['mixing', 'mastering'] }],
  ['not released yet', { '-statuses': ['released'] }],
  ['demos from last year', { statuses: ['demo'], year: [2025, 2025] }],
  ['released in 2020', { year: [2020, 2020] }],
  ['mixed tracks this year', { statuses: ['mixing'], year: [2026, 2026] }],
  ["this year's releases", { year: [2026, 2026] }],
  ['last years demos', { statuses: ['demo'], year: [2025, 2025] }],
  ['unreleased', { '-statuses': ['released'] }],
  ['upcoming releases', { '-statuses': ['released'] }],
  ['songs still unreleased', { '-statuses': ['released'] }],
  ['not unreleased', { statuses: ['released'] }],
  ['unmixed demos', { '-statuses': ['mixing'], statuses: ['demo'] }],
  // years
  ['tracks from the last 3 years', { year: [2024, 2026] }],
  ['before 2010', { year: [null, 2009] }],
  ['since 2018', { year: [2018, null] }],
  ['after the 90s', { year: [2000, null] }],
  ['early 2000s', { year: [2000, 2003] }],
  ['around 2015', { year: [2014, 2016] }],
  ['between 2019 and 2021', { year: [2019, 2021] }],
  ['nineties jazz', { year: [1990, 1999], genres: ['Jazz'] }],
  ["'80s pop", { year: [1980, 1989], genres: ['Pop'] }],
  ['after 2015 and before 2020', { year: [2016, 2019] }],
  [
    'tracks by AWAL or TuneCore from 2022 onwards',
    { distributors: ['AWAL', 'TuneCore'], year: [2022, null] },
  ],
  ['from the 90s onwards', { year: [1990, null] }],
  ['from 2019 to 2021', { year: [2019, 2021] }],
  ['2015 or older', { year: [null, 2015] }],
  ['not before 2010', { year: [2010, null] }],
  // tempo
  ['120 bpm', { bpm: [120, 120] }],
  ['~120 bpm', { bpm: [115, 125] }],
  ['128+ bpm', { bpm: [128, null] }],
  ['bpm 90 to 100', { bpm: [90, 100] }],
  ['tempo under 100', { bpm: [null, 99] }],
  ['at least 140 bpm', { bpm: [140, null] }],
  ['100 bpm or less', { bpm: [null, 100] }],
  ['slow jazz', { bpm: [null, 89], genres: ['Jazz'] }],
  ['mid-tempo pop', { bpm: [90, 119], genres: ['Pop'] }],
  ['uptempo house, not explicit', { bpm: [120, null], genres: ['House'], '-tags': ['explicit'] }],
  ['fast techno from 2020', { bpm: [120, null], genres: ['Techno'], year: [2020, 2020] }],
  ['rock but not too slow', { genres: ['Rock'], bpm: [90, null] }],
  ['slow but over 80 bpm', { bpm: [81, 89] }],
  // free text
  ['songs about love and heartbreak', { text: ['love', 'heartbreak'] }],
  ['Ñandú', { text: ['Ñandú'] }],
];

describe('the query parser', () => {
  it('reads at least forty sentences', () => {
    expect(TRACK_SENTENCES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TRACK_SENTENCES)('tracks: %s', (query, expected) => {
    expect(summary(read(query))).toEqual(expected);
  });

  it.each([
    ['rosalia albums from 2022', { artists: ['Rosalía'], year: [2022, 2022] }],
    ['bad bunny without features', { artists: ['Bad Bunny'], '-tags': ['feat'] }],
    ['jbalvin deluxe', { artists: ['J Balvin'], tags: ['deluxe'] }],
    ['flamenco en español', { genres: ['Flamenco'], languages: ['Spanish'] }],
    ['ES pop, not in english', { languages: ['Spanish'], genres: ['Pop'], '-languages': ['English'] }],
    ['albums in production', { statuses: ['in_production'] }],
    ['planned reggaeton albums', { statuses: ['planning'], genres: ['Reggaeton'] }],
    ['bad bunny EPs from 2023', { artists: ['Bad Bunny'], types: ['ep'], year: [2023, 2023] }],
    ['rosalia singles', { artists: ['Rosalía'], types: ['single'] }],
    ['flamenco LPs, no compilations', { genres: ['Flamenco'], types: ['album'], '-types': ['compilation'] }],
    ['greatest hits of j balvin', { types: ['compilation'], artists: ['J Balvin'] }],
    ['full length studio albums', { types: ['album'] }],
    ['compilaton', { types: ['compilation'] }],
    ["EPs that aren't reggaeton", { types: ['ep'], '-genres': ['Reggaeton'] }],
    ['discos de Bad Bunny que no sean EPs', { artists: ['Bad Bunny'], '-types': ['ep'] }],
    ['neither EPs nor singles', { '-types': ['ep', 'single'] }],
    ['ni EPs ni singles', { '-types': ['ep', 'single'] }],
    ['nothing by Bad Bunny', { '-artists': ['Bad Bunny'] }],
    [
      'reggaeton EP 2022 rimas',
      { genres: ['Reggaeton'], types: ['ep'], year: [2022, 2022], labels: ['Rimas Entertainment'] },
    ],
    ["rosalía's singles", { artists: ['Rosalía'], types: ['single'] }],
    ['upcoming flamenco', { '-statuses': ['released'], genres: ['Flamenco'] }],
  ] as [string, Summary][])('albums: %s', (query, expected) => {
    expect(summary(read(query, 'albums'))).toEqual(expected);
  });

  it("matches the team's own status names when given", () => {
    const statuses = [
      { id: 'v1', name: 'First draft' },
      { id: 'mix_ready', name: 'Ready for mix' },
      { id: 'mixing', name: 'Mixing' },
    ];
    expect(summary(read('first draft songs', 'tracks', { statuses }))).toEqual({ statuses: ['v1'] });
    expect(summary(read('ready for mix, not mixed', 'tracks', { statuses }))).toEqual({
      statuses: ['mix_ready'],
      '-statuses': ['mixing'],
    });
    // "demo" is not a status of this board, so it stays a word
    expect(summary(read('demos', 'tracks', { statuses }))).toEqual({ text: ['demos'] });
  });

  it('gives every value the words that produced it, as typed, negation cue included', () => {
    const { matches } = read('Spanish Hip-Hop between 90 and 100 BPM without features');
    expect(matches).toEqual([
      { filter: 'languages', value: 'es', negated: false, words: ['Spanish'], how: 'synonym' },
      { filter: 'genres', value: 'Hip Hop', negated: false, words: ['Hip-Hop'], how: 'exact' },
      {
        filter: 'bpm',
        range: { min: 90, max: 100 },
        negated: false,
        words: ['between 90 and 100 BPM'],
        how: 'pattern',
      },
      { filter: 'tags', value: 'feat', negated: true, words: ['without', 'features'], how: 'synonym' },
    ]);
    expect(read('regaeton').matches[0]).toMatchObject({ value: 'Reggaeton', how: 'fuzzy' });
    expect(read('not unreleased').matches).toEqual([
      { filter: 'statuses', value: 'released', negated: false, words: ['not', 'unreleased'], how: 'synonym' },
    ]);
    expect(read('on Warp').matches).toEqual([
      { filter: 'labels', value: 'Warp Records', negated: false, words: ['Warp'], how: 'synonym' },
    ]);
  });

  it('lists what it understood but could not use', () => {
    expect(read('not between 2010 and 2015').ignored).toEqual([
      { words: ['not', 'between 2010 and 2015'], reason: 'a negated range with two ends is not supported' },
    ]);
    expect(read('rock, no').ignored).toEqual([{ words: ['no'], reason: 'nothing to negate follows it' }]);
    const albums = read('albums around 120 bpm', 'albums');
    expect(albums.ignored).toEqual([{ words: ['around 120 bpm'], reason: 'albums have no tempo' }]);
    expect(read('slow flamenco', 'albums').ignored).toEqual([
      { words: ['slow'], reason: 'albums have no tempo' },
    ]);
    expect(albums.filters.bpm).toBeNull();
  });

  it('answers vocabulary values only: a word outside the vocabulary stays text', () => {
    const result = parseQuery({
      kind: 'tracks',
      query: 'Spanish reggaeton',
      vocabulary: { genres: ['Pop'] },
      statuses: [],
      today: TODAY,
    });
    expect(summary(result)).toEqual({ text: ['Spanish', 'reggaeton'] });
  });

  /** Reads a track query against a vocabulary of its own, with no statuses. */
  const readWith = (vocabulary: Vocabulary, query: string) =>
    summary(parseQuery({ kind: 'tracks', query, vocabulary, statuses: [], today: TODAY }));

  it('still reads a vocabulary value spelled like a filler word', () => {
    const vocabulary = { tags: ['hits', 'Vibes'], genres: ['Music'] };
    expect(readWith(vocabulary, 'top hits')).toEqual({ text: ['top'], tags: ['hits'] });
    expect(readWith(vocabulary, 'summer vibes')).toEqual({ text: ['summer'], tags: ['Vibes'] });
    expect(readWith(vocabulary, 'music')).toEqual({ genres: ['Music'] });
  });

  it.each([
    ['sony', { labels: ['Sony'] }],
    ['music', {}],
    ['label', {}],
    ['top hits', { text: ['top'] }],
    ['hits records', { labels: ['Hits Records'] }],
    ['k', { text: ['k'] }],
    ['99', { text: ['99'] }],
    ['universal', { labels: ['Universal Music Group'] }],
    ['xl', { labels: ['XL Recordings'] }],
  ] as [string, Summary][])('names a label by its distinctive words only: %s', (query, expected) => {
    const labels = [
      'Sony Music',
      'Sony',
      'Music Group',
      'The Label Co',
      'Hits Records',
      'K Records',
      '99 Records',
      'Universal Music Group',
      'XL Recordings',
    ];
    expect(readWith({ labels }, query)).toEqual(expected);
  });

  it.each([
    [['Icelandic'], 'indie rock in icelandic', { genres: ['Indie Rock'], languages: ['Icelandic'] }],
    [['Icelandic'], 'íslenska jazz', { languages: ['Icelandic'], genres: ['Jazz'] }],
    [['is'], 'icelandic', { languages: ['is'] }],
    [['is'], 'songs in IS', { languages: ['is'] }],
    [['is'], 'songs in is', {}],
    [['is', 'it'], 'it is house', { genres: ['House'] }],
    [['no', 'Norwegian'], 'no jazz', { '-genres': ['Jazz'] }],
    [['no'], 'NO jazz', { '-genres': ['Jazz'] }],
    [['no'], 'norsk jazz', { languages: ['no'], genres: ['Jazz'] }],
    [['id'], "I'd like jazz", { genres: ['Jazz'] }],
    [['id'], 'ID jazz', { languages: ['id'], genres: ['Jazz'] }],
    [['th'], 'the 20th century', { text: ['20th', 'century'] }],
    [['Thai'], 'TH house', { languages: ['Thai'], genres: ['House'] }],
    [['Welsh', 'Irish'], 'cymraeg or gaeilge', { languages: ['Welsh', 'Irish'] }],
    [['sr', 'hr', 'sl', 'sk'], 'srpski, hrvatski', { languages: ['sr', 'hr'] }],
    [['Persian', 'Bengali'], 'farsi not bangla', { languages: ['Persian'], '-languages': ['Bengali'] }],
  ] as [string[], string, Summary][])(
    'reads languages by code, name and own name: %s, %s',
    (languages, query, expected) => {
      const genres = ['Indie Rock', 'Jazz', 'House'];
      expect(readWith({ languages, genres }, query)).toEqual(expected);
    },
  );

  it('prefers a value written as such over a synonym of another value', () => {
    const read = (query: string) =>
      summary(
        parseQuery({
          kind: 'tracks',
          query,
          vocabulary: { languages: ['es', 'Spanish'] },
          statuses: [],
          today: TODAY,
        }),
      );
    expect(read('spanish')).toEqual({ languages: ['Spanish'] });
    expect(read('castellano')).toEqual({ languages: ['es', 'Spanish'] });
  });
});
