import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { KINDS_PATTERN } from './search.schemas.ts';
import { type Hit, searchHelpers } from './search.test-support.ts';
import { SEARCH_KINDS } from './search-kinds.ts';

const ctx = useTestContext();
const h = searchHelpers(ctx);

const keysOf = (hits: Hit[]) => hits.map((hit) => `${hit.kind}:${hit.id}`).sort();

describe('one search', () => {
  it('finds a word in a chat message, a transcript and a comment in one page, never in a thread the caller left or another team', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const track = await ctx.newTrack(team);
    const comment = await h.write(
      'POST',
      `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`,
      member.token,
      { comment: 'The glockenspiel needs more air' },
    );
    const open = await h.newThread(team, { name: 'Arrangement' });
    const message = await h.post(open.id, team.owner, 'bring the glockenspiel tomorrow');
    const voice = await h.transcribedMessage(open.id, member, 'remember the glockenspiel stand');
    // A group thread the member left, and a team thread they left: neither is searched any more.
    const group = await h.newThread(team, { type: 'group', memberIds: [member.id] });
    await h.post(group.id, team.owner, 'the glockenspiel is in the van');
    await h.expectOk('POST', `/api/v1/chat/threads/${group.id}/leave`, member);
    const left = await h.newThread(team, { name: 'Old news' });
    await h.post(left.id, team.owner, 'glockenspiel sold');
    await h.expectOk('POST', `/api/v1/chat/threads/${left.id}/leave`, member);
    // A group thread the member was never in, and another team's chat and comment.
    const closed = await h.newThread(team, { type: 'group', memberIds: [] });
    await h.post(closed.id, team.owner, 'secret glockenspiel plans');
    const other = await ctx.newTeam();
    const otherThread = await h.newThread(other);
    await h.post(otherThread.id, other.owner, 'our glockenspiel');
    const otherTrack = await ctx.newTrack(other);
    await h.write(
      'POST',
      `/api/v1/tracks/${otherTrack.id}/versions/${otherTrack.versionId}/comments`,
      other.owner.token,
      { comment: 'glockenspiel here too' },
    );

    const hits = await h.hitsOf({ q: 'glockenspiel' }, member.token);
    expect(keysOf(hits)).toEqual(
      [`comment:${comment.id}`, `message:${message.id}`, `transcript:${voice.id}`].sort(),
    );
    const transcript = hits.find((hit) => hit.kind === 'transcript')!;
    expect(transcript).toMatchObject({
      teamId: team.id,
      title: 'Arrangement',
      snippet: 'remember the glockenspiel stand',
      highlights: [{ start: 13, length: 12 }],
      link: { href: `/api/v1/chat/threads/${open.id}/messages/${voice.id}/transcription` },
    });
    expect(hits.find((hit) => hit.kind === 'comment')!.link.href).toBe(
      `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`,
    );
    // The owner, still in every thread, sees the left ones too (but not the other team's).
    const owners = await h.hitsOf({ q: 'glockenspiel', kinds: 'message' }, team.owner.token);
    expect(owners).toHaveLength(4);
    // A message newer than the leaving brings the team thread back to the member's list, and to search.
    await h.post(left.id, team.owner, 'anything else?');
    const back = await h.hitsOf({ q: 'glockenspiel', kinds: 'message' }, member.token);
    expect(back.map((hit) => hit.id).sort()).toEqual([message.id, expect.any(String)].sort());
    expect(back).toHaveLength(2);
  });

  it('finds every kind, by word prefix and without accents, with its address', async () => {
    const team = await ctx.newTeam();
    const ids = await h.everyKind(team, 'Xylophonic');
    const hits = await h.hitsOf({ q: 'xylóphon' }, team.owner.token);
    expect(keysOf(hits)).toEqual(SEARCH_KINDS.map((kind) => `${kind}:${ids[kind]}`).sort());
    const hrefs = Object.fromEntries(hits.map((hit) => [hit.kind, hit.link.href]));
    expect(hrefs).toEqual({
      track: `/api/v1/tracks/${ids.track}`,
      album: `/api/v1/albums/${ids.album}`,
      comment: `/api/v1/tracks/${ids.trackId}/versions/${ids.versionId}/comments`,
      todo: `/api/v1/tracks/${ids.trackId}/versions/${ids.versionId}/todos`,
      message: `/api/v1/chat/threads/${ids.threadId}/messages`,
      transcript: `/api/v1/chat/threads/${ids.threadId}/messages/${ids.transcript}/transcription`,
      contact: `/api/v1/contacts/${ids.contact}`,
      session: `/api/v1/sessions/${ids.session}`,
      interview: `/api/v1/interviews/${ids.interview}`,
    });
    for (const hit of hits) {
      expect(hit.teamId).toBe(team.id);
      expect(hit.snippet.slice(hit.highlights[0]!.start, hit.highlights[0]!.start + 10)).toBe('Xylophonic');
    }
    // Each kind alone.
    for (const kind of SEARCH_KINDS) {
      const only = await h.hitsOf({ q: 'xylophonic', kinds: kind }, team.owner.token);
      expect(keysOf(only), kind).toEqual([`${kind}:${ids[kind]}`]);
    }
    const two = await h.hitsOf({ q: 'xylophonic', kinds: 'todo,contact,todo' }, team.owner.token);
    expect(keysOf(two)).toEqual([`contact:${ids.contact}`, `todo:${ids.todo}`]);
    // Every word must match.
    expect(await h.hitsOf({ q: 'xylophonic overdubs' }, team.owner.token)).toMatchObject([
      { kind: 'session', id: ids.session },
    ]);
  });

  it('ranks a title above a body, and ties by kind and id', async () => {
    const team = await ctx.newTeam();
    const t = team.owner.token;
    const titled = await ctx.newTrack(team, { title: 'Marmalade Sky' });
    const noted = await ctx.newTrack(team, { title: 'Plain' });
    await h.write('PATCH', `/api/v1/tracks/${noted.id}`, t, { notes: 'sounds like marmalade' });
    await h.write('POST', `/api/v1/tracks/${noted.id}/versions/${noted.versionId}/comments`, t, {
      comment: 'marmalade marmalade marmalade',
    });
    const thread = await h.newThread(team);
    await h.post(thread.id, team.owner, 'marmalade for breakfast');
    const contact = await h.write('POST', '/api/v1/contacts/', t, {
      team_id: team.id,
      name: 'Marmalade Records',
    });

    const hits = await h.hitsOf({ q: 'marma' }, t);
    expect(hits).toHaveLength(5);
    expect(hits[0]).toMatchObject({ kind: 'track', id: titled.id });
    expect(hits[1]).toMatchObject({ kind: 'contact', id: contact.id });
    const scores = hits.map((hit) => hit.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(hits.find((hit) => hit.kind === 'track' && hit.id === noted.id)!.snippet).toBe(
      'sounds like marmalade',
    );
  });

  it('pages with nextCursor, without repeating or skipping a hit', async () => {
    const team = await ctx.newTeam();
    await h.everyKind(team, 'Quokka');
    // Equal scores: several comments with the same text.
    const track = await ctx.newTrack(team, { title: 'Other' });
    for (let i = 0; i < 4; i++)
      await h.write(
        'POST',
        `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`,
        team.owner.token,
        { comment: 'quokka' },
      );
    const whole = await h.hitsOf({ q: 'quokka', limit: 50 }, team.owner.token);
    expect(whole).toHaveLength(13);
    const paged: Hit[] = [];
    let cursor: string | null = null;
    do {
      const res = await h.search(
        { q: 'quokka', teamId: team.id, limit: 3, ...(cursor ? { cursor } : {}) },
        team.owner.token,
      );
      expect(res.statusCode, res.body).toBe(200);
      paged.push(...res.json().items);
      cursor = res.json().nextCursor;
    } while (cursor);
    expect(paged.map((hit) => `${hit.kind}:${hit.id}`)).toEqual(whole.map((hit) => `${hit.kind}:${hit.id}`));
    expect(new Set(keysOf(paged)).size).toBe(13);

    // A cursor of another list (other words) or a made-up one is refused.
    const first = await h.search({ q: 'quokka', limit: 3 }, team.owner.token);
    const foreign = await h.search({ q: 'other', cursor: first.json().nextCursor }, team.owner.token);
    expect(foreign.statusCode).toBe(400);
    const forged = `${Buffer.from(JSON.stringify([1, 'message', 5])).toString('base64url')}.x`;
    expect((await h.search({ q: 'quokka', cursor: forged }, team.owner.token)).statusCode).toBe(400);
  });

  it('searches one team with teamId, all the caller’s teams without it; a team they are not in is 404', async () => {
    const owner = await ctx.newUser();
    const [a, b] = [await ctx.newTeam(owner), await ctx.newTeam(owner)];
    const inA = await ctx.newTrack(a, { title: 'Bandicoot' });
    const inB = await ctx.newTrack(b, { title: 'Bandicoot' });
    expect(keysOf(await h.hitsOf({ q: 'bandicoot' }, owner.token))).toEqual(
      [`track:${inA.id}`, `track:${inB.id}`].sort(),
    );
    expect(keysOf(await h.hitsOf({ q: 'bandicoot', teamId: b.id }, owner.token))).toEqual([
      `track:${inB.id}`,
    ]);
    // A track shared into the caller's other team is found once, with its owning team.
    await ctx.shareTrack(inA.id, b.id, owner.token);
    const shared = await h.hitsOf({ q: 'bandicoot', teamId: b.id }, owner.token);
    expect(shared.map((hit) => [hit.id, hit.teamId])).toEqual(
      expect.arrayContaining([
        [inA.id, a.id],
        [inB.id, b.id],
      ]),
    );
    expect((await h.hitsOf({ q: 'bandicoot' }, owner.token)).length).toBe(2);

    const outsider = await ctx.newUser();
    expect(await h.hitsOf({ q: 'bandicoot' }, outsider.token)).toEqual([]);
    const hidden = await h.search({ q: 'bandicoot', teamId: a.id }, outsider.token);
    expect(hidden.statusCode).toBe(404);
    // Not in the team and no hit anywhere: still 404, not an empty page.
    expect((await h.search({ q: 'nothingmatches', teamId: a.id }, outsider.token)).statusCode).toBe(404);
    expect((await h.search({ q: 'nothingmatches', teamId: a.id }, owner.token)).json()).toEqual({
      items: [],
      nextCursor: null,
    });
    // A soft-deleted track leaves the search.
    await ctx.request({ method: 'DELETE', url: `/api/v1/tracks/${inB.id}`, token: owner.token });
    expect(keysOf(await h.hitsOf({ q: 'bandicoot', teamId: b.id }, owner.token))).toEqual([
      `track:${inA.id}`,
    ]);
  });

  it("lets a key search its own team's tracks, albums, comments, to-dos and contacts only", async () => {
    const team = await ctx.newTeam();
    const ids = await h.everyKind(team, 'Pangolin');
    const key = await ctx.newApiKey(team);
    const hits = await h.hitsOf({ q: 'pangolin' }, key);
    expect(keysOf(hits)).toEqual(
      ['track', 'album', 'comment', 'todo', 'contact']
        .map((kind) => `${kind}:${ids[kind as 'track']}`)
        .sort(),
    );
    expect(keysOf(await h.hitsOf({ q: 'pangolin', teamId: team.id, kinds: 'album' }, key))).toEqual([
      `album:${ids.album}`,
    ]);
    for (const kinds of ['message', 'track,transcript', 'session', 'interview']) {
      const res = await h.search({ q: 'pangolin', kinds }, key);
      expect(res.statusCode, kinds).toBe(403);
      expect(res.json().code).toBe('session_required');
    }
    const other = await ctx.newTeam();
    const otherKey = await ctx.newApiKey(other);
    expect(await h.hitsOf({ q: 'pangolin' }, otherKey)).toEqual([]);
    expect((await h.search({ q: 'pangolin', teamId: team.id }, otherKey)).statusCode).toBe(404);
  });

  it('takes every kind, and lists of them, in kinds', () => {
    const pattern = new RegExp(KINDS_PATTERN);
    for (const kind of SEARCH_KINDS) expect(pattern.test(kind), kind).toBe(true);
    expect(pattern.test(SEARCH_KINDS.join(','))).toBe(true);
    expect(pattern.test('tracks')).toBe(false);
  });

  it('answers 401 without a valid token, and 400 to a query without words, a bad kind or limit', async () => {
    const team = await ctx.newTeam();
    for (const token of ['', 'garbage']) {
      const res = await ctx.request({ method: 'GET', url: '/api/v1/search?q=x', token });
      expect(res.statusCode).toBe(401);
    }
    const bad: Record<string, string | number>[] = [
      { q: '!!! ---' },
      { q: '' },
      { q: 'x', kinds: 'tracks' },
      { q: 'x', kinds: 'track,' },
      { q: 'x', limit: 0 },
    ];
    for (const query of bad) {
      const res = await h.search(query, team.owner.token);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('takes any characters in q without failing', async () => {
    const team = await ctx.newTeam();
    await ctx.newTrack(team, { title: "Rock'n'roll ß naïve 東京 😀" });
    const odd = [
      "rock'n'roll",
      'a:* & b | !c',
      "(( ') <-> \\ ",
      'ß',
      'NAÏVE',
      '東京',
      '😀 x',
      '\u0000x',
      'ǅ ǈ İ',
      'a'.repeat(120),
      '-- ; drop table tracks',
      '1 2 3 4 5 6 7 8 9 10 11 12',
    ];
    for (const q of odd) {
      const res = await h.search({ q }, team.owner.token);
      expect(res.statusCode, q).toBeLessThan(500);
    }
    expect(keysOf(await h.hitsOf({ q: 'naive' }, team.owner.token))).toHaveLength(1);
    expect(keysOf(await h.hitsOf({ q: 'rock roll' }, team.owner.token))).toHaveLength(1);
  });
});
