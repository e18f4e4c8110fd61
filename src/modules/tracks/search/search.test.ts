import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix } from '../../../../test/helpers/security-matrix.ts';
import { searchTracks } from './search.repository.ts';
import { prefixQuery, searchTerms } from './search-text.ts';

const ctx = useTestContext();

const search = (team: TestTeam, q: string, token = team.owner.token, extra = '') =>
  ctx.request({
    method: 'GET',
    url: `/api/v1/tracks/search/deep?teamId=${team.id}&q=${encodeURIComponent(q)}${extra}`,
    token,
  });

type Hit = {
  track: { id: number };
  field: string;
  snippet: string;
  highlights: { start: number; length: number }[];
};
const marked = (hit: Hit) => hit.highlights.map((h) => hit.snippet.slice(h.start, h.start + h.length));

async function write(method: 'POST' | 'PATCH', url: string, token: string, payload: object) {
  const res = await ctx.request({ method, url, token, payload });
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

describe('deep search', () => {
  it('finds tracks by title, metadata, lyrics, notes, comments, to-dos and links, by prefix and without accents', async () => {
    const team = await ctx.newTeam();
    const t = team.owner.token;
    const title = await ctx.newTrack(team, { title: 'Café Nocturne' });
    const meta = await ctx.newTrack(team, { title: 'Plain one' });
    await write('PATCH', `/api/v1/tracks/${meta.id}`, t, { genre: 'Synthwave', label: 'Neon Records' });
    const lyrics = await ctx.newTrack(team, { title: 'Plain two' });
    await write('PATCH', `/api/v1/tracks/${lyrics.id}`, t, {
      lyrics: 'We dance under the crystal chandelier tonight',
    });
    const notes = await ctx.newTrack(team, { title: 'Plain three' });
    await write('PATCH', `/api/v1/tracks/${notes.id}`, t, { notes: 'Bridge needs a glockenspiel' });
    const commented = await ctx.newTrack(team, { title: 'Plain four' });
    const base = `/api/v1/tracks/${commented.id}/versions/${commented.versionId}`;
    await write('POST', `${base}/comments`, t, { comment: 'The théremin solo is wonderful', atSeconds: 12 });
    await write('POST', `${base}/todos`, t, { todo: 'Retune the kalimba' });
    const linked = await ctx.newTrack(team, { title: 'Plain five' });
    await write('POST', `/api/v1/tracks/${linked.id}/references`, t, {
      url: 'https://open.spotify.com/track/zyxwv',
      platform: 'spotify',
    });

    const expectHit = async (q: string, trackId: number, field: string, word: string) => {
      const res = await search(team, q);
      expect(res.statusCode, res.body).toBe(200);
      const hits = res.json().items as Hit[];
      expect(
        hits.map((h) => h.track.id),
        q,
      ).toEqual([trackId]);
      expect(hits[0]!.field, q).toBe(field);
      expect(marked(hits[0]!), q).toContain(word);
    };
    await expectHit('cafe noct', title.id, 'title', 'Café');
    await expectHit('CAFÉ', title.id, 'title', 'Café');
    await expectHit('synthw', meta.id, 'metadata', 'Synthwave');
    await expectHit('chandel', lyrics.id, 'lyrics', 'chandelier');
    await expectHit('glocken', notes.id, 'notes', 'glockenspiel');
    await expectHit('theremin', commented.id, 'comment', 'théremin');
    await expectHit('kalim', commented.id, 'todo', 'kalimba');
    await expectHit('zyxwv', linked.id, 'reference', 'zyxwv');

    // A large team is searched through the indexes instead of track by track: same answers.
    for (const q of ['cafe noct', 'synthw', 'chandel', 'glocken', 'theremin', 'kalim', 'zyxwv', 'plain']) {
      const query = { allTerms: prefixQuery(searchTerms(q)), anyTerm: prefixQuery(searchTerms(q), '|') };
      const byTeam = await searchTracks(ctx.database.db, team.id, query, 20);
      expect(byTeam.length, q).toBeGreaterThan(0);
      expect(await searchTracks(ctx.database.db, team.id, query, 20, { largeTeamTracks: 0 }), q).toEqual(
        byTeam,
      );
    }
  });

  it('ranks a title match above a lyrics match and gives one entry per track', async () => {
    const team = await ctx.newTeam();
    const inLyrics = await ctx.newTrack(team, { title: 'Something else' });
    await write('PATCH', `/api/v1/tracks/${inLyrics.id}`, team.owner.token, { lyrics: 'Thunder rolls' });
    const inTitle = await ctx.newTrack(team, { title: 'Thunder' });
    await write('PATCH', `/api/v1/tracks/${inTitle.id}`, team.owner.token, { lyrics: 'thunder thunder' });
    const res = await search(team, 'thunder');
    expect(res.json().items.map((h: Hit) => [h.track.id, h.field])).toEqual([
      [inTitle.id, 'title'],
      [inLyrics.id, 'lyrics'],
    ]);
    expect((await search(team, 'thunder', team.owner.token, '&limit=1')).json().items).toHaveLength(1);
  });

  it('finds a track whose fields hold the terms between them, and shows the field holding one', async () => {
    const team = await ctx.newTeam();
    const spread = await ctx.newTrack(team, { title: 'Marigold' });
    await write('PATCH', `/api/v1/tracks/${spread.id}`, team.owner.token, { lyrics: 'an obsidian sky' });
    await ctx.newTrack(team, { title: 'Marigold alone' });
    const res = await search(team, 'obsidian marigold');
    const hits = res.json().items as Hit[];
    expect(hits.map((h) => [h.track.id, h.field])).toEqual([[spread.id, 'title']]);
    expect(marked(hits[0]!)).toEqual(['Marigold']);
  });

  it('searches only tracks the team holds and that are not deleted', async () => {
    const owner = await ctx.newUser();
    const team = await ctx.newTeam(owner);
    const other = await ctx.newTeam(owner);
    await ctx.newTrack(other, { title: 'Quasar hidden' });
    const shared = await ctx.newTrack(other, { title: 'Quasar shared' });
    await write('POST', `/api/v1/tracks/${shared.id}/teams`, owner.token, { teamId: team.id });
    const deleted = await ctx.newTrack(team, { title: 'Quasar deleted' });
    await ctx.request({ method: 'DELETE', url: `/api/v1/tracks/${deleted.id}`, token: owner.token });
    const res = await search(team, 'quasar');
    expect(res.json().items.map((h: Hit) => h.track.id)).toEqual([shared.id]);
  });

  it('refuses bad queries (400)', async () => {
    const team = await ctx.newTeam();
    for (const q of ['a', 'x'.repeat(121), '!!', ':*&']) {
      const res = await search(team, q);
      expect(res.statusCode, q).toBe(400);
    }
    const noTeam = await ctx.request({
      method: 'GET',
      url: '/api/v1/tracks/search/deep?q=abc',
      token: team.owner.token,
    });
    expect(noTeam.statusCode).toBe(400);
    expect((await search(team, 'abc', team.owner.token, '&limit=201')).statusCode).toBe(400);
  });
});

describeSecurityMatrix(ctx, [
  {
    method: 'GET',
    path: '/api/v1/tracks/search/deep',
    build: (team) => ({ url: `/api/v1/tracks/search/deep?teamId=${team.id}&q=song` }),
  },
]);
