import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../test/helpers/security-matrix.ts';
import { domainEvents } from '../../db/schema/index.ts';
import { DEFAULT_STATUS_CONFIG } from '../teams/default-status-config.ts';

const ctx = useTestContext();

const get = (url: string, token: string) => ctx.request({ method: 'GET', url, token });
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

async function activityOf(team: TestTeam) {
  return ctx.database.db
    .select({ action: domainEvents.type, subjectId: domainEvents.subjectId })
    .from(domainEvents)
    .where(eq(domainEvents.teamId, team.id));
}

describe('tracks', () => {
  describe('create', () => {
    const create = (token: string, payload: object) =>
      ctx.request({ method: 'POST', url: '/api/v1/tracks/', token, payload });

    it('creates a track in the first status with its first version and an audio upload URL', async () => {
      const team = await ctx.newTeam();
      const res = await create(team.owner.token, {
        title: ' First song ',
        team_id: team.id,
        audio_file_name: 'demo.wav',
      });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({
        title: 'First song',
        teamId: team.id,
        statusId: 'idea',
        createdBy: team.owner.id,
        upload: { method: 'PUT', uploadUrl: expect.any(String), fileKey: expect.any(String) },
      });
      expect(Date.parse(body.upload.expiresAt)).toBeGreaterThan(Date.now());
      const versions = await get(`/api/v1/tracks/${body.id}/versions`, team.owner.token);
      expect(versions.json().items).toEqual([
        expect.objectContaining({ id: body.versionId, name: 'Version 1', audioFileName: 'demo.wav' }),
      ]);
      const upload = new URL(body.upload.uploadUrl);
      const put = await ctx.request({
        method: 'PUT',
        url: upload.pathname + upload.search,
        headers: body.upload.headers,
        payload: Buffer.from('RIFF'),
      });
      expect(put.statusCode, put.body).toBeLessThan(300);
      expect(await activityOf(team)).toContainEqual({ action: 'track.created', subjectId: String(body.id) });
    });

    it('starts in the first status of the team’s own configuration', async () => {
      const team = await ctx.newTeam();
      await send('PATCH', `/api/v1/teams/${team.id}/status-config`, team.owner.token, {
        patch: { tracks: [{ id: 'sketch', name: 'Sketch' }, ...DEFAULT_STATUS_CONFIG.tracks] },
      });
      const res = await create(team.owner.token, { title: 'S', team_id: team.id, audio_file_name: 'a.mp3' });
      expect(res.json().statusId).toBe('sketch');
    });

    it('refuses invalid bodies and non-audio files (400) and creates nothing', async () => {
      const team = await ctx.newTeam();
      const bodies: [object, string][] = [
        [{ team_id: team.id, audio_file_name: 'a.wav' }, '/body/title'],
        [{ title: ' ', team_id: team.id, audio_file_name: 'a.wav' }, '/body/title'],
        [{ title: 'x', team_id: String(team.id), audio_file_name: 'a.wav' }, '/body/team_id'],
        [{ title: 'x', team_id: team.id }, '/body/audioFileName'],
        [{ title: 'x', team_id: team.id, audio_file_name: 'a.wav', teamId: team.id + 1 }, '/body/team_id'],
      ];
      for (const [body, path] of bodies) {
        const res = await create(team.owner.token, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(
          res
            .json()
            .details.map((d: { path: string }) => d.path)
            .join(' '),
        ).toContain(path);
      }
      const text = await create(team.owner.token, {
        title: 'x',
        team_id: team.id,
        audio_file_name: 'notes.txt',
      });
      expect(text.statusCode).toBe(400);
      expect(text.json().code).toBe('unsupported_file_type');
      expect((await get(`/api/v1/tracks/?teamId=${team.id}`, team.owner.token)).json().items).toEqual([]);
      const stranger = await ctx.newTeam();
      const foreign = await create(team.owner.token, {
        title: 'x',
        team_id: stranger.id,
        audio_file_name: 'a.wav',
      });
      expect(foreign.statusCode).toBe(404);
    });
  });

  it('lists a team’s tracks, newest change first, with keyset pages', async () => {
    const team = await ctx.newTeam();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await ctx.newTrack(team, { title: `Song ${i}` }));
    const first = await get(`/api/v1/tracks/?teamId=${team.id}&limit=2`, team.owner.token);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.items.map((t: { title: string }) => t.title)).toEqual(['Song 4', 'Song 3']);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const seen = [...page1.items];
    let cursor = page1.nextCursor;
    while (cursor) {
      const res = await get(`/api/v1/tracks/?teamId=${team.id}&limit=2&cursor=${cursor}`, team.owner.token);
      seen.push(...res.json().items);
      cursor = res.json().nextCursor;
    }
    expect(seen.map((t) => t.id)).toEqual(made.map((t) => t.id).reverse());
    expect(seen[0]).toMatchObject({ teamId: team.id, teamIds: [team.id], statusId: 'idea', tags: [] });
  });

  it('lists tracks without their long texts, which the track itself has', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const patched = await send('PATCH', `/api/v1/tracks/${track.id}`, team.owner.token, {
      lyrics: 'la la la',
      notes: 'louder chorus',
    });
    expect(patched.statusCode).toBe(200);
    const [item] = (await get(`/api/v1/tracks/?teamId=${team.id}`, team.owner.token)).json().items;
    expect(item).toMatchObject({ id: track.id, title: track.title });
    expect(item).not.toHaveProperty('lyrics');
    expect(item).not.toHaveProperty('notes');
    const detail = (await get(`/api/v1/tracks/${track.id}`, team.owner.token)).json();
    expect(detail).toMatchObject({ lyrics: 'la la la', notes: 'louder chorus' });
    // `blockedBy` belongs to the board (the list) only.
    expect(item.blockedBy).toBeNull();
    expect(Object.keys(detail)).toEqual(
      expect.arrayContaining(Object.keys(item).filter((k) => k !== 'blockedBy')),
    );
  });

  it('answers an empty page to a member of a team without tracks, and 404 to anyone else', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    for (const token of [team.owner.token, member.token]) {
      const res = await get(`/api/v1/tracks/?teamId=${team.id}`, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ items: [], nextCursor: null });
    }
    const outsider = await ctx.newTeam();
    for (const query of ['', '&status=idea', '&status=nope', '&q=x']) {
      const res = await get(`/api/v1/tracks/?teamId=${team.id}${query}`, outsider.owner.token);
      expect(res.statusCode, query).toBe(404);
    }
    const otherKey = await ctx.newApiKey(outsider);
    expect((await get(`/api/v1/tracks/?teamId=${team.id}`, otherKey)).statusCode).toBe(404);
  });

  it('filters by status and text and sorts by title', async () => {
    const team = await ctx.newTeam();
    await ctx.newTrack(team, { title: 'banana Split' });
    await ctx.newTrack(team, { title: 'Apple Pie' });
    await ctx.newTrack(team, { title: 'Cherry', statusId: 'mixing' });
    const byTitle = await get(`/api/v1/tracks/?teamId=${team.id}&sort=title`, team.owner.token);
    expect(byTitle.json().items.map((t: { title: string }) => t.title)).toEqual([
      'Apple Pie',
      'banana Split',
      'Cherry',
    ]);
    const paged = await get(`/api/v1/tracks/?teamId=${team.id}&sort=title&limit=1`, team.owner.token);
    const next = await get(
      `/api/v1/tracks/?teamId=${team.id}&sort=title&limit=2&cursor=${paged.json().nextCursor}`,
      team.owner.token,
    );
    expect(next.json().items.map((t: { title: string }) => t.title)).toEqual(['banana Split', 'Cherry']);
    const mixing = await get(`/api/v1/tracks/?teamId=${team.id}&status=mixing`, team.owner.token);
    expect(mixing.json().items.map((t: { title: string }) => t.title)).toEqual(['Cherry']);
    const text = await get(`/api/v1/tracks/?teamId=${team.id}&q=SPLIT`, team.owner.token);
    expect(text.json().items.map((t: { title: string }) => t.title)).toEqual(['banana Split']);
  });

  it('lists every team of the caller without teamId, and the key’s team with a key', async () => {
    const owner = await ctx.newUser();
    const a = await ctx.newTeam(owner);
    const b = await ctx.newTeam(owner);
    const other = await ctx.newTeam();
    const ta = await ctx.newTrack(a);
    const tb = await ctx.newTrack(b);
    await ctx.newTrack(other);
    const all = await get('/api/v1/tracks/', owner.token);
    expect(
      all
        .json()
        .items.map((t: { id: number }) => t.id)
        .sort(),
    ).toEqual([ta.id, tb.id].sort());
    const key = await ctx.newApiKey(a);
    const keyed = await get('/api/v1/tracks/', key);
    expect(keyed.json().items.map((t: { id: number }) => t.id)).toEqual([ta.id]);
  });

  it('refuses bad list queries (400)', async () => {
    const team = await ctx.newTeam();
    for (const query of [
      'limit=0',
      'limit=201',
      'sort=random',
      'status=Bad-Id',
      'cursor=%%%',
      'teamId=x',
      'q=',
    ]) {
      const res = await get(`/api/v1/tracks/?teamId=${team.id}&${query}`, team.owner.token);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const other = await ctx.newTeam();
    expect((await get(`/api/v1/tracks/?teamId=${other.id}`, team.owner.token)).statusCode).toBe(404);
  });

  it('reads and patches catalogue fields, recording activity', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const res = await send('PATCH', `/api/v1/tracks/${track.id}`, team.owner.token, {
      title: ' New title ',
      artist: 'The Band',
      tags: ['pop', 'summer'],
      bpm: 120.5,
      key: 'F# minor',
      language: 'en',
      isrc: 'US-RC1-76-07839',
      releaseDate: '2027-01-15',
      explicit: false,
      lyrics: 'la la la',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'New title',
      artist: 'The Band',
      tags: ['pop', 'summer'],
      bpm: 120.5,
      key: 'F# minor',
      isrc: 'USRC17607839',
      releaseDate: '2027-01-15',
      explicit: false,
      references: [],
      inspirations: [],
    });
    // Two decimals that binary floating point cannot divide by 0.01 exactly.
    for (const bpm of [0.29, 120.29, 999.99]) {
      const exact = await send('PATCH', `/api/v1/tracks/${track.id}`, team.owner.token, { bpm });
      expect(exact.statusCode, String(bpm)).toBe(200);
      expect(exact.json().bpm).toBe(bpm);
    }
    const cleared = await send('PATCH', `/api/v1/tracks/${track.id}`, team.owner.token, { artist: null });
    expect(cleared.json().artist).toBeNull();
    const read = await get(`/api/v1/tracks/${track.id}`, team.owner.token);
    expect(read.json()).toMatchObject({ title: 'New title', artist: null, lyrics: 'la la la' });
    expect(await activityOf(team)).toContainEqual({ action: 'track.updated', subjectId: String(track.id) });
  });

  it('refuses invalid patches (400) and changes nothing', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team, { title: 'Keep' });
    const cases: [object, string][] = [
      [{}, '/body'],
      [{ title: '' }, '/body/title'],
      [{ title: '   ' }, '/body/title'],
      [{ bpm: -1 }, '/body/bpm'],
      [{ bpm: 120.295 }, '/body/bpm'],
      [{ bpm: '120' }, '/body/bpm'],
      [{ isrc: 'nope' }, '/body/isrc'],
      [{ releaseDate: '2027-13-01' }, '/body/releaseDate'],
      [{ tags: ['a', 'a'] }, '/body/tags'],
      [{ colour: 'red' }, '/body'],
      [{ teamId: 5 }, '/body'],
    ];
    for (const [body, path] of cases) {
      const res = await send('PATCH', `/api/v1/tracks/${track.id}`, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(
        res
          .json()
          .details.map((d: { path: string }) => d.path)
          .join(' '),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await get(`/api/v1/tracks/${track.id}`, team.owner.token)).json().title).toBe('Keep');
    expect((await get('/api/v1/tracks/abc', team.owner.token)).statusCode).toBe(400);
    expect((await get('/api/v1/tracks/999999999', team.owner.token)).statusCode).toBe(404);
  });

  it('soft-deletes, restores and hard-deletes', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const url = `/api/v1/tracks/${track.id}`;
    expect((await send('DELETE', url, team.owner.token)).statusCode).toBe(204);
    expect((await get(url, team.owner.token)).statusCode).toBe(404);
    expect((await get(`/api/v1/tracks/?teamId=${team.id}`, team.owner.token)).json().items).toEqual([]);
    const restored = await send('POST', `${url}/restore`, team.owner.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().deletedAt).toBeNull();
    expect((await send('POST', `${url}/restore`, team.owner.token)).statusCode).toBe(409);
    expect((await get(url, team.owner.token)).statusCode).toBe(200);
    expect((await send('DELETE', `${url}?mode=bogus`, team.owner.token)).statusCode).toBe(400);
    expect((await send('DELETE', `${url}?mode=hard`, team.owner.token)).statusCode).toBe(204);
    expect((await send('POST', `${url}/restore`, team.owner.token)).statusCode).toBe(404);
    const actions = (await activityOf(team)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['track.deleted', 'track.restored']));
  });

  it('changes status within the team’s configuration only', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const res = await send('PATCH', `/api/v1/tracks/${track.id}/status`, team.owner.token, {
      status: 'mixing',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().statusId).toBe('mixing');
    const bad = await send('PATCH', `/api/v1/tracks/${track.id}/status`, team.owner.token, {
      status: 'nowhere',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('/body/status');
    expect((await send('PATCH', `/api/v1/tracks/${track.id}/status`, team.owner.token, {})).statusCode).toBe(
      400,
    );
  });

  it('keeps a status in use from being removed from the team configuration', async () => {
    const team = await ctx.newTeam();
    await ctx.newTrack(team, { statusId: 'mixing' });
    const withoutMixing = DEFAULT_STATUS_CONFIG.tracks.filter((s) => s.id !== 'mixing');
    const url = `/api/v1/teams/${team.id}/status-config`;
    const refused = await send('PATCH', url, team.owner.token, { patch: { tracks: withoutMixing } });
    expect(refused.statusCode).toBe(409);
    const moved = await send('PATCH', url, team.owner.token, {
      patch: { tracks: withoutMixing, moves: { tracks: { mixing: 'ready' } } },
    });
    expect(moved.statusCode).toBe(200);
    const list = await get(`/api/v1/tracks/?teamId=${team.id}&status=ready`, team.owner.token);
    expect(list.json().items).toHaveLength(1);
    for (const query of [`teamId=${team.id}&status=redy`, 'status=redy']) {
      const typo = await get(`/api/v1/tracks/?${query}`, team.owner.token);
      expect(typo.statusCode, query).toBe(400);
      expect(typo.json().details).toEqual([
        { path: '/query/status', message: 'is not a track status of the team (redy)' },
      ]);
    }
  });

  describe('reorder within a status', () => {
    const reorder = (team: TestTeam, body: object) =>
      send('POST', '/api/v1/tracks/reorder', team.owner.token, body);
    const column = async (team: TestTeam) => {
      const res = await get(`/api/v1/tracks/?teamId=${team.id}&status=idea&limit=200`, team.owner.token);
      return res
        .json()
        .items.sort((a: { position: number }, b: { position: number }) => a.position - b.position)
        .map((t: { id: number }) => t.id);
    };

    it('applies a permutation atomically', async () => {
      const team = await ctx.newTeam();
      const [a, b, c] = [await ctx.newTrack(team), await ctx.newTrack(team), await ctx.newTrack(team)];
      const res = await reorder(team, {
        status_id: 'idea',
        track_orders: [
          { trackId: a!.id, order: 3 },
          { trackId: b!.id, order: 1 },
          { trackId: c!.id, order: 2 },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().trackIds).toEqual([b!.id, c!.id, a!.id]);
      expect(await column(team)).toEqual([b!.id, c!.id, a!.id]);
    });

    it('refuses duplicates, foreign ids and partial lists (400) and changes nothing', async () => {
      const team = await ctx.newTeam();
      const [a, b] = [await ctx.newTrack(team), await ctx.newTrack(team)];
      const mixing = await ctx.newTrack(team, { statusId: 'mixing' });
      const foreign = await ctx.newTrack(await ctx.newTeam());
      const before = await column(team);
      const bodies = [
        [
          { trackId: a.id, order: 1 },
          { trackId: a.id, order: 2 },
        ],
        [
          { trackId: a.id, order: 1 },
          { trackId: b.id, order: 1 },
        ],
        [
          { trackId: a.id, order: 1 },
          { trackId: b.id, order: 2 },
          { trackId: foreign.id, order: 3 },
        ],
        [
          { trackId: a.id, order: 1 },
          { trackId: b.id, order: 2 },
          { trackId: mixing.id, order: 3 },
        ],
        [{ trackId: a.id, order: 1 }],
        [],
        // Another team's or a missing track first: still this team's board, so still 400.
        [
          { trackId: foreign.id, order: 1 },
          { trackId: a.id, order: 2 },
          { trackId: b.id, order: 3 },
        ],
        [
          { trackId: 2_000_000_000, order: 1 },
          { trackId: a.id, order: 2 },
          { trackId: b.id, order: 3 },
        ],
      ];
      for (const track_orders of bodies) {
        const res = await reorder(team, { status_id: 'idea', track_orders });
        expect(res.statusCode, JSON.stringify(track_orders)).toBe(400);
        expect(res.json().code).toBe('validation_failed');
      }
      const unknownStatus = await reorder(team, {
        status_id: 'nowhere',
        track_orders: [{ trackId: a.id, order: 1 }],
      });
      expect(unknownStatus.statusCode).toBe(400);
      const unseen = await reorder(team, {
        status_id: 'idea',
        track_orders: [{ trackId: foreign.id, order: 1 }],
      });
      expect(unseen.statusCode).toBe(404);
      expect(await column(team)).toEqual(before);
    });
  });

  describe('sharing with another team', () => {
    it('makes the track visible in both teams, with the access rules of both', async () => {
      const owner = await ctx.newUser();
      // The guest team is older (smaller id): teamIds still lists the owning team first.
      const guest = await ctx.newTeam(owner);
      const home = await ctx.newTeam(owner);
      const guestMember = await ctx.addMember(guest);
      const track = await ctx.newTrack(home);
      const guestKey = await ctx.newApiKey(guest, ['tracks:write']);
      expect((await get(`/api/v1/tracks/${track.id}`, guestMember.token)).statusCode).toBe(404);
      expect((await get(`/api/v1/tracks/${track.id}`, guestKey)).statusCode).toBe(404);

      const res = await send('POST', `/api/v1/tracks/${track.id}/teams`, owner.token, { teamId: guest.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ trackId: track.id, teamIds: [home.id, guest.id] });
      const again = await send('POST', `/api/v1/tracks/${track.id}/teams`, owner.token, { teamId: guest.id });
      expect(again.json().teamIds).toEqual([home.id, guest.id]);

      expect((await get(`/api/v1/tracks/${track.id}`, guestMember.token)).statusCode).toBe(200);
      expect((await get(`/api/v1/tracks/${track.id}`, guestKey)).statusCode).toBe(200);
      const list = await get(`/api/v1/tracks/?teamId=${guest.id}`, guestMember.token);
      expect(list.json().items.map((t: { id: number }) => t.id)).toEqual([track.id]);
      // A team the track is shared with reads it and comments on it; it changes nothing of the owning team.
      const patched = await send('PATCH', `/api/v1/tracks/${track.id}`, guestMember.token, { genre: 'jazz' });
      expect(patched.statusCode).toBe(403);
      expect(
        (await send('PATCH', `/api/v1/tracks/${track.id}`, owner.token, { genre: 'jazz' })).statusCode,
      ).toBe(200);
      // A key acts for its team: it reads a track shared with it, writes only its own team's tracks.
      const keyWrites = [
        await send('PATCH', `/api/v1/tracks/${track.id}`, guestKey, { genre: 'rock' }),
        await send('POST', `/api/v1/tracks/${track.id}/versions/${track.versionId}/todos`, guestKey, {
          todo: 'bounce',
        }),
      ];
      for (const write of keyWrites) {
        expect(write.statusCode, write.body).toBe(403);
        expect(write.json().code).toBe('forbidden');
      }
      // A team the track is shared with cannot pass it on.
      const elsewhere = await ctx.newTeam(guestMember);
      const onward = await send('POST', `/api/v1/tracks/${track.id}/teams`, guestMember.token, {
        teamId: elsewhere.id,
      });
      expect(onward.statusCode).toBe(403);
      expect((await get(`/api/v1/tracks/${track.id}`, guestKey)).json().genre).toBe('jazz');
      // Board operations of the owning team stay with its members.
      expect((await send('DELETE', `/api/v1/tracks/${track.id}`, guestMember.token)).statusCode).toBe(403);
      const status = await send('PATCH', `/api/v1/tracks/${track.id}/status`, guestMember.token, {
        status: 'mixing',
      });
      expect(status.statusCode).toBe(403);
    });

    it('only shares with a team of the caller', async () => {
      const team = await ctx.newTeam();
      const track = await ctx.newTrack(team);
      const stranger = await ctx.newTeam();
      const res = await send('POST', `/api/v1/tracks/${track.id}/teams`, team.owner.token, {
        teamId: stranger.id,
      });
      expect(res.statusCode).toBe(404);
      const bad = await send('POST', `/api/v1/tracks/${track.id}/teams`, team.owner.token, { teamId: 'x' });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('references and inspirations', () => {
    it('adds http and https links and shows them on the track', async () => {
      const team = await ctx.newTeam();
      const track = await ctx.newTrack(team);
      const ref = await send('POST', `/api/v1/tracks/${track.id}/references`, team.owner.token, {
        url: 'https://open.spotify.com/track/abc',
        platform: 'Spotify',
      });
      expect(ref.statusCode, ref.body).toBe(201);
      expect(ref.json()).toMatchObject({ kind: 'reference', platform: 'spotify' });
      const insp = await send('POST', `/api/v1/tracks/${track.id}/inspirations`, team.owner.token, {
        url: 'http://example.com/mood',
      });
      expect(insp.statusCode).toBe(201);
      const detail = (await get(`/api/v1/tracks/${track.id}`, team.owner.token)).json();
      expect(detail.references.map((r: { url: string }) => r.url)).toEqual([
        'https://open.spotify.com/track/abc',
      ]);
      expect(detail.inspirations.map((r: { url: string }) => r.url)).toEqual(['http://example.com/mood']);
    });

    it('refuses other schemes and missing fields (400)', async () => {
      const team = await ctx.newTeam();
      const track = await ctx.newTrack(team);
      const bodies: [string, object][] = [
        ['references', { url: 'ftp://example.com/a', platform: 'x' }],
        ['references', { url: 'javascript:alert(1)', platform: 'x' }],
        ['references', { url: 'https://example.com' }],
        ['references', { url: 'https://', platform: 'x' }],
        ['inspirations', { url: 'file:///etc/passwd' }],
        ['inspirations', { url: 'not a url' }],
        ['inspirations', {}],
      ];
      for (const [kind, body] of bodies) {
        const res = await send('POST', `/api/v1/tracks/${track.id}/${kind}`, team.owner.token, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
    });
  });
});

const trackUrl = (suffix: string, payload?: unknown) => async (team: TestTeam) => {
  const track = await ctx.newTrack(team);
  return { url: `/api/v1/tracks/${track.id}${suffix}`, ...(payload ? { payload } : {}) };
};

const cases: MatrixCase[] = [
  {
    method: 'POST',
    path: '/api/v1/tracks/',
    build: (team) => ({
      url: '/api/v1/tracks/',
      payload: { title: 'Matrix', team_id: team.id, audio_file_name: 'matrix.wav' },
    }),
  },
  { method: 'GET', path: '/api/v1/tracks/', build: (team) => ({ url: `/api/v1/tracks/?teamId=${team.id}` }) },
  { method: 'GET', path: '/api/v1/tracks/{id}', shareLevel: 'read', build: trackUrl('') },
  {
    method: 'PATCH',
    path: '/api/v1/tracks/{id}',
    shareLevel: 'owner',
    build: trackUrl('', { title: 'Matrix' }),
  },
  { method: 'DELETE', path: '/api/v1/tracks/{id}', shareLevel: 'owner', build: trackUrl('') },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/restore',
    shareLevel: 'owner',
    build: async (team) => {
      const track = await ctx.newTrack(team);
      await send('DELETE', `/api/v1/tracks/${track.id}`, team.owner.token);
      return { url: `/api/v1/tracks/${track.id}/restore` };
    },
  },
  {
    method: 'PATCH',
    path: '/api/v1/tracks/{id}/status',
    shareLevel: 'owner',
    build: trackUrl('/status', { status: 'mixing' }),
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/reorder',
    shareLevel: 'owner',
    build: async (team) => {
      const track = await ctx.newTrack(team);
      return {
        url: '/api/v1/tracks/reorder',
        payload: { status_id: 'idea', track_orders: [{ trackId: track.id, order: 0 }] },
      };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/teams',
    shareLevel: 'owner',
    build: async (team) => ({
      url: `/api/v1/tracks/${(await ctx.newTrack(team)).id}/teams`,
      payload: { teamId: team.id },
    }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/tracks/{id}/teams/{teamId}',
    shareLevel: 'owner',
    builtByOwner: true,
    build: async (team) => {
      const track = await ctx.newTrack(team);
      const other = await ctx.newTeam(team.owner);
      const shared = await send('POST', `/api/v1/tracks/${track.id}/teams`, team.owner.token, {
        teamId: other.id,
      });
      expect(shared.statusCode, shared.body).toBe(200);
      return { url: `/api/v1/tracks/${track.id}/teams/${other.id}` };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/references',
    shareLevel: 'owner',
    build: trackUrl('/references', { url: 'https://example.com/a', platform: 'youtube' }),
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/inspirations',
    shareLevel: 'owner',
    build: trackUrl('/inspirations', { url: 'https://example.com/b' }),
  },
];

// Sharing names the team itself: for a key that is its own team (a no-op share that still checks access).
cases.find((c) => c.path === '/api/v1/tracks/{id}/teams')!.build = async (team) => {
  const track = await ctx.newTrack(team);
  return { url: `/api/v1/tracks/${track.id}/teams`, payload: { teamId: team.id } };
};

describeSecurityMatrix(ctx, cases);
