import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestTeam, type TestTrack, useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../test/helpers/security-matrix.ts';
import { albums, teams } from '../../db/schema/index.ts';
import { DEFAULT_STATUS_CONFIG } from '../teams/default-status-config.ts';
import { lookAlikeQuery, lookAlikeVocabulary } from './fixtures/look-alike-vocabulary.ts';

const ctx = useTestContext();

const TRACK_VOCABULARY = {
  genres: ['Reggaeton', 'Hip Hop', 'Pop'],
  languages: ['es', 'en'],
  tags: ['feat', 'chill'],
  labels: ['Sony Music'],
  distributors: ['DistroKid'],
};
const ALBUM_VOCABULARY = {
  artists: ['Rosalía', 'Bad Bunny'],
  genres: ['Flamenco', 'Reggaeton'],
  languages: ['es'],
  tags: ['feat'],
};

type Kind = 'tracks' | 'albums';
const search = (kind: Kind, token: string | undefined, payload: Record<string, unknown>) =>
  ctx.request({ method: 'POST', url: `/api/v1/ai-search/${kind}`, token, payload });

/** Searches and expects 200. */
async function found(kind: Kind, token: string, payload: Record<string, unknown>) {
  const res = await search(kind, token, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const idsOf = (body: { results: { items: { id: number }[] } }) =>
  body.results.items.map((i) => i.id).sort((a, b) => a - b);

async function trackWith(team: TestTeam, fields: Record<string, unknown>, statusId?: string) {
  const track = await ctx.newTrack(team, statusId ? { statusId } : {});
  const res = await ctx.request({
    method: 'PATCH',
    url: `/api/v1/tracks/${track.id}`,
    token: team.owner.token,
    payload: fields,
  });
  expect(res.statusCode, res.body).toBe(200);
  return track;
}

async function albumWith(team: TestTeam, fields: Partial<typeof albums.$inferInsert>) {
  const [row] = await ctx.database.db
    .insert(albums)
    .values({ teamId: team.id, statusId: 'idea', position: 0, title: `Album ${ctx.unique()}`, ...fields })
    .returning({ id: albums.id });
  return row!.id;
}

describe('AI search with the built-in parser', () => {
  it('answers the filters of a sentence, with the words behind each value', async () => {
    const user = await ctx.newUser();
    const body = await found('tracks', user.token, {
      query: 'Spanish reggaeton from 2023 without features',
      vocabulary: TRACK_VOCABULARY,
    });
    expect(body.provider).toBe('parser');
    expect(body.fallback).toBeUndefined();
    expect(body.results).toBeUndefined();
    expect(body.filters).toEqual({
      distributors: { include: [], exclude: [] },
      genres: { include: ['Reggaeton'], exclude: [] },
      labels: { include: [], exclude: [] },
      languages: { include: ['es'], exclude: [] },
      tags: { include: [], exclude: ['feat'] },
      statuses: { include: [], exclude: [] },
      year: { min: 2023, max: 2023 },
      bpm: null,
      text: { include: [], exclude: [] },
    });
    expect(body.matches).toEqual([
      { filter: 'languages', value: 'es', negated: false, words: ['Spanish'], how: 'synonym' },
      { filter: 'genres', value: 'Reggaeton', negated: false, words: ['reggaeton'], how: 'exact' },
      {
        filter: 'year',
        range: { min: 2023, max: 2023 },
        negated: false,
        words: ['from 2023'],
        how: 'pattern',
      },
      { filter: 'tags', value: 'feat', negated: true, words: ['without', 'features'], how: 'synonym' },
    ]);
    expect(body.ignored).toEqual([]);
  });

  it('reads album sentences with their own lists and no tempo', async () => {
    const user = await ctx.newUser();
    const body = await found('albums', user.token, {
      query: 'rosalia albums around 120 bpm in planning',
      vocabulary: ALBUM_VOCABULARY,
    });
    expect(body.filters).toEqual({
      artists: { include: ['Rosalía'], exclude: [] },
      genres: { include: [], exclude: [] },
      labels: { include: [], exclude: [] },
      languages: { include: [], exclude: [] },
      tags: { include: [], exclude: [] },
      statuses: { include: ['planning'], exclude: [] },
      types: { include: [], exclude: [] },
      year: null,
      text: { include: [], exclude: [] },
    });
    expect(body.ignored).toEqual([{ words: ['around 120 bpm'], reason: 'albums have no tempo' }]);
  });

  it('accepts any token: a team API key without scopes, with or without its teamId', async () => {
    const team = await ctx.newTeam();
    const key = await ctx.newApiKey(team, []);
    const plain = await found('tracks', key, { query: 'pop', vocabulary: TRACK_VOCABULARY });
    expect(plain.filters.genres.include).toEqual(['Pop']);
    const scoped = await found('albums', key, {
      query: 'flamenco',
      vocabulary: ALBUM_VOCABULARY,
      teamId: team.id,
    });
    expect(scoped.results).toEqual({ items: [], nextCursor: null });
  });

  describe('validation', () => {
    const expectInvalid = async (kind: Kind, payload: unknown, path: string) => {
      const user = await ctx.newUser();
      const res = await search(kind, user.token, payload as Record<string, unknown>);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    };

    it('limits the query to 1..500 characters with something in it', async () => {
      const vocabulary = TRACK_VOCABULARY;
      await expectInvalid('tracks', { query: '', vocabulary }, '/body/query');
      await expectInvalid('tracks', { query: '   ', vocabulary }, '/body/query');
      await expectInvalid('tracks', { query: 'x'.repeat(501), vocabulary }, '/body/query');
      await expectInvalid('tracks', { vocabulary }, '/body/query');
      const user = await ctx.newUser();
      const longest = await search('tracks', user.token, { query: `pop ${'x'.repeat(496)}`, vocabulary });
      expect(longest.statusCode).toBe(200);
    });

    it("checks the vocabulary's shape: the route's lists only, arrays of non-empty strings", async () => {
      await expectInvalid('tracks', { query: 'pop' }, '/body/vocabulary');
      await expectInvalid('tracks', { query: 'pop', vocabulary: ['Pop'] }, '/body/vocabulary');
      await expectInvalid(
        'tracks',
        { query: 'pop', vocabulary: { genres: 'Pop' } },
        '/body/vocabulary/genres',
      );
      await expectInvalid(
        'tracks',
        { query: 'pop', vocabulary: { genres: [1] } },
        '/body/vocabulary/genres/0',
      );
      await expectInvalid(
        'tracks',
        { query: 'pop', vocabulary: { genres: [''] } },
        '/body/vocabulary/genres/0',
      );
      await expectInvalid(
        'tracks',
        { query: 'pop', vocabulary: { artists: [] } },
        '/body/vocabulary/artists',
      );
      await expectInvalid(
        'albums',
        { query: 'pop', vocabulary: { distributors: [] } },
        '/body/vocabulary/distributors',
      );
    });

    it('refuses unknown fields, a bad teamId or limit, and a limit or cursor without teamId or not issued here', async () => {
      const vocabulary = {};
      await expectInvalid('tracks', { query: 'pop', vocabulary, sort: 'new' }, '/body/sort');
      await expectInvalid('tracks', { query: 'pop', vocabulary, teamId: 0 }, '/body/teamId');
      await expectInvalid('tracks', { query: 'pop', vocabulary, teamId: '1' }, '/body/teamId');
      await expectInvalid('albums', { query: 'pop', vocabulary, limit: 201 }, '/body/limit');
      await expectInvalid('tracks', { query: 'pop', vocabulary, cursor: 'abc' }, '/body/cursor');
      const user = await ctx.newUser();
      const unpaged = await search('albums', user.token, { query: 'pop', vocabulary, limit: 10 });
      expect(unpaged.statusCode).toBe(400);
      expect(unpaged.json().details).toEqual([
        { path: '/body/limit', message: 'is only accepted with teamId' },
      ]);
      const team = await ctx.newTeam();
      const res = await search('tracks', team.owner.token, {
        query: 'pop',
        vocabulary,
        teamId: team.id,
        cursor: '%%',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([
        { path: '/body/cursor', message: 'is not a cursor this endpoint issued' },
      ]);
      // A forged cursor whose date the database would not read is refused too, not a 500.
      const forged = Buffer.from(JSON.stringify(['Tue March 3 2026', 1])).toString('base64url');
      const again = await search('tracks', team.owner.token, {
        query: 'pop',
        vocabulary,
        teamId: team.id,
        cursor: forged,
      });
      expect(again.statusCode).toBe(400);
    });
  });
});

describe('AI search over a team (teamId)', () => {
  it('finds the tracks one sentence describes: "Spanish reggaeton from 2023 without features"', async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam(team.owner);
    const t = (fields: Record<string, unknown>, owner = team) => trackWith(owner, fields);
    const hit = await t({ genre: 'reggaeton', language: 'es', releaseDate: '2023-05-01', artist: 'Luna' });
    const regional = await t({ genre: 'Reggaeton', language: 'es-MX', releaseDate: '2023-11-30' });
    await t({ genre: 'Reggaeton', language: 'es', releaseDate: '2023-02-01', tags: ['feat', 'chill'] });
    await t({ genre: 'Reggaeton', language: 'es', releaseDate: '2021-02-01' });
    await t({ genre: 'Reggaeton', language: 'en', releaseDate: '2023-02-01' });
    await t({ genre: null, language: 'es', releaseDate: '2023-02-01' });
    await t({ genre: 'Reggaeton', language: 'es' });
    const deleted = await t({ genre: 'Reggaeton', language: 'es', releaseDate: '2023-02-01' });
    const gone = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/tracks/${deleted.id}`,
      token: team.owner.token,
    });
    expect(gone.statusCode).toBe(204);
    const shared = await t({ genre: 'Reggaeton', language: 'es', releaseDate: '2023-07-07' }, other);
    await ctx.shareTrack(shared.id, team.id, team.owner.token);
    // Another team's identical track is never found.
    const stranger = await ctx.newTeam();
    await t({ genre: 'Reggaeton', language: 'es', releaseDate: '2023-05-01' }, stranger);

    const body = await found('tracks', team.owner.token, {
      query: 'Spanish reggaeton from 2023 without features',
      vocabulary: TRACK_VOCABULARY,
      teamId: team.id,
    });
    expect(idsOf(body)).toEqual([hit.id, regional.id, shared.id].sort((a, b) => a - b));
    expect(body.results.nextCursor).toBeNull();
    expect(body.results.items.find((i: { id: number }) => i.id === hit.id)).toMatchObject({
      teamId: team.id,
      title: expect.any(String),
      artist: 'Luna',
      genre: 'reggaeton',
      language: 'es',
      tags: [],
      releaseDate: '2023-05-01',
      statusId: 'idea',
      updatedAt: expect.any(String),
    });
    const byArtist = await found('tracks', team.owner.token, {
      query: 'luna',
      vocabulary: {},
      teamId: team.id,
    });
    expect(idsOf(byArtist)).toEqual([hit.id]);
  });

  it('matches data spelled differently from the vocabulary, and whole BPM', async () => {
    const team = await ctx.newTeam();
    const spanish = await trackWith(team, { language: 'es', genre: 'Hip-Hop', bpm: 95.4 });
    const named = await trackWith(team, { language: 'es-419', genre: 'hiphop', bpm: 94.6 });
    await trackWith(team, { language: 'pt', genre: 'HIP HOP', bpm: 96 });
    const body = await found('tracks', team.owner.token, {
      query: 'castellano hip hop at 95 bpm',
      vocabulary: { languages: ['Spanish'], genres: ['Hip Hop'] },
      teamId: team.id,
    });
    expect(body.filters.bpm).toEqual({ min: 95, max: 95 });
    expect(idsOf(body)).toEqual([spanish.id, named.id]);
  });

  it('matches a language code in the data to a language name in the vocabulary', async () => {
    const team = await ctx.newTeam();
    const coded = await trackWith(team, { language: 'is', genre: 'Indie Rock' });
    const regional = await trackWith(team, { language: 'is-IS', genre: 'indie rock' });
    await trackWith(team, { language: 'en', genre: 'Indie Rock' });
    const body = await found('tracks', team.owner.token, {
      query: 'indie rock in icelandic',
      vocabulary: { languages: ['Icelandic'], genres: ['Indie Rock'] },
      teamId: team.id,
    });
    expect(body.filters.languages).toEqual({ include: ['Icelandic'], exclude: [] });
    expect(idsOf(body)).toEqual([coded.id, regional.id]);
  });

  it('reads tempo words as BPM ranges, unless the vocabulary has the word', async () => {
    const team = await ctx.newTeam();
    const slow = await trackWith(team, { bpm: 72 });
    const mid = await trackWith(team, { bpm: 100 });
    const fast = await trackWith(team, { bpm: 128 });
    await ctx.newTrack(team);
    const ask = (query: string, vocabulary = {}) =>
      found('tracks', team.owner.token, { query, vocabulary, teamId: team.id });
    const slowAnswer = await ask('slow songs');
    expect(slowAnswer.filters.bpm).toEqual({ min: null, max: 89 });
    expect(slowAnswer.matches).toEqual([
      { filter: 'bpm', range: { min: null, max: 89 }, negated: false, words: ['slow'], how: 'pattern' },
    ]);
    expect(idsOf(slowAnswer)).toEqual([slow.id]);
    expect(idsOf(await ask('mid-tempo'))).toEqual([mid.id]);
    expect(idsOf(await ask('uptempo'))).toEqual([fast.id]);
    expect(idsOf(await ask('not slow'))).toEqual([mid.id, fast.id]);
    const tagged = await ask('fast', { tags: ['Fast'] });
    expect(tagged.filters).toMatchObject({ bpm: null, tags: { include: ['Fast'], exclude: [] } });
  });

  it("reads status words against the team's own board", async () => {
    const team = await ctx.newTeam();
    const board = [...DEFAULT_STATUS_CONFIG.tracks, { id: 'second_pass', name: 'Second pass' }];
    await ctx.database.db
      .update(teams)
      .set({ statusConfig: { ...DEFAULT_STATUS_CONFIG, tracks: board } })
      .where(eq(teams.id, team.id));
    const second = await ctx.newTrack(team, { statusId: 'second_pass' });
    const mixing = await ctx.newTrack(team, { statusId: 'mixing' });
    await ctx.newTrack(team);
    const body = await found('tracks', team.owner.token, {
      query: 'second pass or mixed tracks',
      vocabulary: {},
      teamId: team.id,
    });
    expect(body.filters.statuses).toEqual({ include: ['second_pass', 'mixing'], exclude: [] });
    expect(idsOf(body)).toEqual([second.id, mixing.id]);
    // Without teamId the default board is used, which has no "second pass".
    const plain = await found('tracks', team.owner.token, { query: 'second pass', vocabulary: {} });
    expect(plain.filters.statuses.include).toEqual([]);
  });

  it('pages through results with limit and cursor, newest first', async () => {
    const team = await ctx.newTeam();
    const made: TestTrack[] = [];
    for (let i = 0; i < 3; i++) made.push(await trackWith(team, { genre: 'Pop' }));
    await trackWith(team, { genre: 'Rock' });
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const body = await found('tracks', team.owner.token, {
        query: 'pop',
        vocabulary: TRACK_VOCABULARY,
        teamId: team.id,
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...body.results.items.map((i: { id: number }) => i.id));
      cursor = body.results.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(made.map((t) => t.id).reverse());

    // A cursor pages its own query only.
    const first = await found('tracks', team.owner.token, {
      query: 'pop',
      vocabulary: TRACK_VOCABULARY,
      teamId: team.id,
      limit: 1,
    });
    const otherQuery = await search('tracks', team.owner.token, {
      query: 'rock',
      vocabulary: TRACK_VOCABULARY,
      teamId: team.id,
      limit: 1,
      cursor: first.results.nextCursor,
    });
    expect(otherQuery.statusCode).toBe(400);
    expect(otherQuery.json().details[0]).toMatchObject({ path: '/body/cursor' });
  });

  it('finds albums: artist, year, negated tags, free text', async () => {
    const team = await ctx.newTeam();
    const motomami = await albumWith(team, {
      title: 'Motomami',
      artist: 'Rosalía',
      genre: 'Flamenco',
      releaseDate: '2022-03-18',
      tags: ['feat'],
    });
    const querer = await albumWith(team, {
      title: 'El Mal Querer',
      artist: 'Rosalia',
      genre: 'flamenco',
      releaseDate: '2018-11-02',
    });
    const verano = await albumWith(team, {
      title: 'Un Verano Sin Ti',
      artist: 'Bad Bunny',
      genre: 'Reggaeton',
      releaseDate: '2022-05-06',
      language: 'es',
    });
    await albumWith(await ctx.newTeam(), { artist: 'Rosalía', releaseDate: '2022-01-01' });
    const owner = team.owner.token;
    const ask = (query: string) =>
      found('albums', owner, { query, vocabulary: ALBUM_VOCABULARY, teamId: team.id });
    expect(idsOf(await ask('rosalía'))).toEqual([motomami, querer]);
    expect(idsOf(await ask('rosalia from 2022'))).toEqual([motomami]);
    expect(idsOf(await ask('albums from 2022 without features'))).toEqual([verano]);
    expect(idsOf(await ask('verano'))).toEqual([verano]);
    expect(idsOf(await ask('flamenco, not querer'))).toEqual([motomami]);
    const single = await albumWith(team, { title: 'Despechá', artist: 'Rosalía', type: 'single' });
    const ep = await albumWith(team, { title: 'Rr', artist: 'Rosalía', type: 'ep' });
    expect(idsOf(await ask('rosalia singles'))).toEqual([single]);
    expect(idsOf(await ask('rosalia EPs'))).toEqual([ep]);
    expect(idsOf(await ask('rosalia, no singles or EPs'))).toEqual([motomami, querer]);
    const [album] = (await ask('verano')).results.items;
    expect(album).toMatchObject({
      id: verano,
      type: 'album',
      artist: 'Bad Bunny',
      releaseDate: '2022-05-06',
    });
  });

  it("answers 404 for another team's teamId, to a session or a key", async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam();
    const key = await ctx.newApiKey(other, []);
    for (const token of [other.owner.token, key]) {
      for (const kind of ['tracks', 'albums'] as const) {
        const res = await search(kind, token, { query: 'pop', vocabulary: {}, teamId: team.id });
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
    }
    const missing = await search('tracks', team.owner.token, {
      query: 'pop',
      vocabulary: {},
      teamId: 2_000_000_000,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('answers members of the team, not only its owner', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const track = await trackWith(team, { genre: 'Pop' });
    const body = await found('tracks', member.token, {
      query: 'pop',
      vocabulary: TRACK_VOCABULARY,
      teamId: team.id,
    });
    expect(idsOf(body)).toEqual([track.id]);
  });
});

describe('AI search cost', () => {
  // A hard safety budget: such a request took 8 to 10 s when every span of the query was compared with
  // every look-alike phrase in full. Reading and validating the 660 kB body counts here too, hence 2 s.
  it('answers within two seconds for a team whose catalogue makes a full vocabulary of look-alike phrases', async () => {
    const team = await ctx.newTeam();
    const vocabulary = lookAlikeVocabulary('tracks');
    const genre = vocabulary.genres![0]!;
    // The query's other words are within reach of no value: they stay text, found in the title.
    const title = lookAlikeQuery().split(' ').slice(0, 5).join(' ');
    const track = await trackWith(team, { title, genre, label: vocabulary.labels![1] });
    await trackWith(team, { title, genre: vocabulary.genres![2] });
    const query = lookAlikeQuery(`${genre},`);
    const started = performance.now();
    const body = await found('tracks', team.owner.token, { query, vocabulary, teamId: team.id });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(body.filters.genres.include).toEqual([genre]);
    expect(idsOf(body)).toEqual([track.id]);
  });
});

const matrixCase = (kind: Kind, withTeam: boolean): MatrixCase => ({
  method: 'POST',
  path: `/api/v1/ai-search/${kind}`,
  teamScoped: withTeam,
  build: (team) => ({
    url: `/api/v1/ai-search/${kind}`,
    payload: { query: 'pop', vocabulary: { genres: ['Pop'] }, ...(withTeam ? { teamId: team.id } : {}) },
  }),
});

describeSecurityMatrix(ctx, [
  matrixCase('tracks', false),
  matrixCase('tracks', true),
  matrixCase('albums', false),
  matrixCase('albums', true),
]);
