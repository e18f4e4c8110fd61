import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { albums, domainEvents, trackVersions } from '../../db/schema/index.ts';

const ctx = useTestContext();
const { newAlbum, addTracks, albumWithTracks, getAlbum } = albumHelpers(ctx);

const get = (url: string, token: string) => ctx.request({ method: 'GET', url, token });
const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

async function activityOf(team: TestTeam) {
  return ctx.database.db
    .select({ action: domainEvents.type, subjectId: domainEvents.subjectId })
    .from(domainEvents)
    .where(and(eq(domainEvents.teamId, team.id), eq(domainEvents.subjectType, 'album')))
    .orderBy(asc(domainEvents.position));
}

/** Album ids of one status in board order, with their positions. */
async function column(team: TestTeam, statusId: string) {
  const rows = await ctx.database.db
    .select({ id: albums.id, position: albums.position })
    .from(albums)
    .where(and(eq(albums.teamId, team.id), eq(albums.statusId, statusId)))
    .orderBy(asc(albums.position));
  expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i));
  return rows.map((r) => r.id);
}

type JsonResponse = { statusCode: number; json(): { code: string; details: { path: string }[] } };

/** 400 validation_failed naming `path`. */
function expectValidation(res: JsonResponse, path: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe('validation_failed');
  expect(res.json().details.map((d) => d.path)).toContain(path);
}

describe('albums', () => {
  describe('create and change', () => {
    it("creates an album at the end of the team's first status, with every field", async () => {
      const team = await ctx.newTeam();
      const first = await newAlbum(team);
      const res = await send('POST', '/api/v1/albums/', team.owner.token, {
        title: '  Night Drive ',
        teamId: team.id,
        artist: 'The Owls',
        type: 'ep',
        releaseDate: '2027-03-01',
        label: 'Nocturne',
        upc: '012345678905',
        genre: 'synthwave',
        language: 'en-GB',
        tags: ['night', 'drive'],
        notes: 'Vinyl first',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        teamId: team.id,
        statusId: 'idea',
        position: 1,
        title: 'Night Drive',
        artist: 'The Owls',
        type: 'ep',
        releaseDate: '2027-03-01',
        label: 'Nocturne',
        upc: '012345678905',
        genre: 'synthwave',
        language: 'en-GB',
        tags: ['night', 'drive'],
        notes: 'Vinyl first',
        coverFileId: null,
        cover: null,
        trackCount: 0,
        tracks: [],
        createdBy: team.owner.id,
      });
      expect(first).toMatchObject({ position: 0, type: 'album', tags: [], upc: null });
      expect(await activityOf(team)).toEqual([
        { action: 'album.created', subjectId: String(first.id) },
        { action: 'album.created', subjectId: String(res.json().id) },
      ]);
    });

    it('creates with an API key that has albums:write, only in its own team', async () => {
      const team = await ctx.newTeam();
      const key = await ctx.newApiKey(team, ['albums:write']);
      const res = await send('POST', '/api/v1/albums/', key, { title: 'By key', teamId: team.id });
      expect(res.statusCode).toBe(201);
      expect(res.json().createdBy).toBeNull();
      const other = await ctx.newTeam();
      expect((await send('POST', '/api/v1/albums/', key, { title: 'x', teamId: other.id })).statusCode).toBe(
        404,
      );
      const outsider = await send('POST', '/api/v1/albums/', team.owner.token, {
        title: 'x',
        teamId: other.id,
      });
      expect(outsider.statusCode).toBe(404);
    });

    it('validates every field, naming the path', async () => {
      const team = await ctx.newTeam();
      const create = (fields: object) =>
        send('POST', '/api/v1/albums/', team.owner.token, { title: 'T', teamId: team.id, ...fields });
      for (const upc of ['12345', '0123456789012345', '01234567890a', ' 012345678905']) {
        expectValidation(await create({ upc }), '/body/upc');
      }
      expect((await create({ upc: '4006381333931' })).statusCode).toBe(201);
      expectValidation(await create({ type: 'mixtape' }), '/body/type');
      expectValidation(await create({ releaseDate: '2027-13-01' }), '/body/releaseDate');
      expectValidation(await create({ language: 'english!' }), '/body/language');
      expectValidation(await create({ tags: ['a', 'a'] }), '/body/tags');
      expectValidation(await create({ title: '   ' }), '/body/title');
      expectValidation(await create({ colour: 'red' }), '/body/colour');
      expectValidation(
        await send('POST', '/api/v1/albums/', team.owner.token, { title: 'T' }),
        '/body/teamId',
      );
    });

    it('changes only the fields given; null clears', async () => {
      const team = await ctx.newTeam();
      const album = await newAlbum(team, { label: 'Old', genre: 'pop' });
      const res = await send('PATCH', `/api/v1/albums/${album.id}`, team.owner.token, {
        title: ' New title ',
        label: null,
        upc: '4006381333931',
        type: 'single',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        title: 'New title',
        label: null,
        genre: 'pop',
        upc: '4006381333931',
        type: 'single',
        statusId: 'idea',
      });
      expect(new Date(res.json().updatedAt).getTime()).toBeGreaterThanOrEqual(
        new Date(album.createdAt).getTime(),
      );
      expectValidation(await send('PATCH', `/api/v1/albums/${album.id}`, team.owner.token, {}), '/body');
      expectValidation(
        await send('PATCH', `/api/v1/albums/${album.id}`, team.owner.token, { teamId: team.id }),
        '/body/teamId',
      );
      expectValidation(
        await send('PATCH', `/api/v1/albums/${album.id}`, team.owner.token, { upc: '12' }),
        '/body/upc',
      );
      expect((await activityOf(team)).map((a) => a.action)).toEqual(['album.created', 'album.updated']);
    });
  });

  describe('read', () => {
    it('shows the tracks in album order with the duration of the final, else the newest version', async () => {
      const team = await ctx.newTeam();
      const [a, b, c] = [await ctx.newTrack(team), await ctx.newTrack(team), await ctx.newTrack(team)];
      const album = await newAlbum(team);
      await addTracks(team, album.id, [c.id, a.id, b.id]);
      const takeOne = await ctx.newVersion(a, { durationSeconds: 100 });
      await ctx.newVersion(a, { durationSeconds: 200 });
      await ctx.newVersion(b, { durationSeconds: 90.5 });
      const detail = await getAlbum(team, album.id);
      expect(detail.trackCount).toBe(3);
      expect(detail.tracks).toEqual([
        { id: c.id, title: c.title, artist: null, statusId: 'idea', position: 0, durationSeconds: null },
        { id: a.id, title: a.title, artist: null, statusId: 'idea', position: 1, durationSeconds: 200 },
        { id: b.id, title: b.title, artist: null, statusId: 'idea', position: 2, durationSeconds: 90.5 },
      ]);
      await ctx.database.db
        .update(trackVersions)
        .set({ isFinal: true })
        .where(eq(trackVersions.id, takeOne.id));
      expect((await getAlbum(team, album.id)).tracks[1].durationSeconds).toBe(100);
    });

    it('hides soft-deleted tracks until they are restored, in their old place', async () => {
      const team = await ctx.newTeam();
      const { album, trackIds } = await albumWithTracks(team, 3);
      expect((await send('DELETE', `/api/v1/tracks/${trackIds[1]}`, team.owner.token)).statusCode).toBe(204);
      const hidden = await getAlbum(team, album.id);
      expect(hidden.tracks.map((t: { id: number }) => t.id)).toEqual([trackIds[0], trackIds[2]]);
      expect(hidden.tracks.map((t: { position: number }) => t.position)).toEqual([0, 1]);
      expect(hidden.trackCount).toBe(2);
      const links = await get(`/api/v1/albums/links?teamId=${team.id}`, team.owner.token);
      expect(links.json().albums[0].trackIds).toEqual([trackIds[0], trackIds[2]]);
      expect((await send('POST', `/api/v1/tracks/${trackIds[1]}/restore`, team.owner.token)).statusCode).toBe(
        200,
      );
      expect((await getAlbum(team, album.id)).tracks.map((t: { id: number }) => t.id)).toEqual(trackIds);
    });

    it("answers 404 for another team's album and a missing one, 400 for a malformed id", async () => {
      const team = await ctx.newTeam();
      const album = await newAlbum(team);
      const other = await ctx.newTeam();
      const otherKey = await ctx.newApiKey(other, ['albums:write']);
      for (const token of [other.owner.token, otherKey]) {
        const res = await get(`/api/v1/albums/${album.id}`, token);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'not_found', error: 'Album not found' });
      }
      expect((await get('/api/v1/albums/999999', team.owner.token)).statusCode).toBe(404);
      expectValidation(await get('/api/v1/albums/abc', team.owner.token), '/params/id');
      const ownKey = await ctx.newApiKey(team);
      expect((await get(`/api/v1/albums/${album.id}`, ownKey)).statusCode).toBe(200);
    });
  });

  describe('list', () => {
    it('pages by cursor, most recently updated first, and filters by status', async () => {
      const team = await ctx.newTeam();
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await newAlbum(team));
      await send('PATCH', `/api/v1/albums/${made[1]!.id}/status`, team.owner.token, { status: 'ready' });
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(
          `/api/v1/albums/?teamId=${team.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          team.owner.token,
        );
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).not.toHaveProperty('total');
        seen.push(...res.json().items.map((a: { id: number }) => a.id));
        cursor = res.json().nextCursor;
      } while (cursor);
      expect(seen).toEqual([made[1]!.id, made[4]!.id, made[3]!.id, made[2]!.id, made[0]!.id]);
      const ready = await get(`/api/v1/albums/?teamId=${team.id}&status=ready`, team.owner.token);
      expect(ready.json().items.map((a: { id: number }) => a.id)).toEqual([made[1]!.id]);
      expect(ready.json().items[0]).toMatchObject({ statusId: 'ready', trackCount: 0 });
      await send('PATCH', `/api/v1/albums/${made[2]!.id}`, team.owner.token, { type: 'ep' });
      const eps = await get(`/api/v1/albums/?teamId=${team.id}&type=ep&offset=0`, team.owner.token);
      expect(eps.json()).toMatchObject({ items: [{ id: made[2]!.id, type: 'ep' }], total: 1 });
      for (const status of ['nowhere', 'writing']) {
        const unknown = await get(`/api/v1/albums/?teamId=${team.id}&status=${status}`, team.owner.token);
        expect(unknown.statusCode, status).toBe(400);
        expect(unknown.json().details[0].path).toBe('/query/status');
      }
      const wrongType = await get(`/api/v1/albums/?teamId=${team.id}&type=mixtape`, team.owner.token);
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json().details[0].path).toBe('/query/type');
    });

    it('pages by offset with the total, and in board order', async () => {
      const team = await ctx.newTeam();
      const [a, b, c, d] = [
        await newAlbum(team),
        await newAlbum(team),
        await newAlbum(team),
        await newAlbum(team),
      ];
      await send('PATCH', `/api/v1/albums/${a.id}/status`, team.owner.token, { status: 'released' });
      await send('PATCH', `/api/v1/albums/${b.id}/status`, team.owner.token, { status: 'planning' });
      const board = [c.id, d.id, b.id, a.id];
      const page = await get(
        `/api/v1/albums/?teamId=${team.id}&sort=board&offset=1&limit=2`,
        team.owner.token,
      );
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json().total).toBe(4);
      expect(page.json().items.map((x: { id: number }) => x.id)).toEqual(board.slice(1, 3));
      const rest = await get(
        `/api/v1/albums/?teamId=${team.id}&sort=board&limit=2&cursor=${page.json().nextCursor}`,
        team.owner.token,
      );
      expect(rest.json().items.map((x: { id: number }) => x.id)).toEqual(board.slice(3));
      expect(rest.json().nextCursor).toBeNull();
      const beyond = await get(`/api/v1/albums/?teamId=${team.id}&offset=10`, team.owner.token);
      expect(beyond.json()).toEqual({ items: [], nextCursor: null, total: 4 });
      const filtered = await get(`/api/v1/albums/?teamId=${team.id}&status=idea&offset=0`, team.owner.token);
      expect(filtered.json().total).toBe(2);
    });

    it('refuses bad queries with 400 and other teams with 404', async () => {
      const team = await ctx.newTeam();
      await newAlbum(team);
      await newAlbum(team);
      const base = `/api/v1/albums/?teamId=${team.id}`;
      expectValidation(await get('/api/v1/albums/', team.owner.token), '/query/teamId');
      expectValidation(await get(`${base}&limit=0`, team.owner.token), '/query/limit');
      expectValidation(await get(`${base}&limit=201`, team.owner.token), '/query/limit');
      expectValidation(await get(`${base}&offset=-1`, team.owner.token), '/query/offset');
      expectValidation(await get(`${base}&cursor=nope`, team.owner.token), '/query/cursor');
      expectValidation(await get(`${base}&sort=title`, team.owner.token), '/query/sort');
      const first = await get(`${base}&limit=1&sort=board`, team.owner.token);
      expectValidation(
        await get(`${base}&sort=board&offset=1&cursor=${first.json().nextCursor}`, team.owner.token),
        '/query/offset',
      );
      // A cursor belongs to its list: another order, another status or another team's list refuses it.
      const stranger = await ctx.newTeam();
      await newAlbum(stranger);
      for (const url of [
        `${base}&cursor=${first.json().nextCursor}`,
        `${base}&sort=board&status=idea&cursor=${first.json().nextCursor}`,
        `/api/v1/albums/?teamId=${stranger.id}&sort=board&cursor=${first.json().nextCursor}`,
      ]) {
        const res = await get(
          url,
          url.includes(String(stranger.id)) ? stranger.owner.token : team.owner.token,
        );
        expect(res.statusCode, url).toBe(400);
        expect(res.json().details).toEqual([
          {
            path: '/query/cursor',
            message: 'belongs to another list: send the filters of the page it came from',
          },
        ]);
      }
      expect(
        (await get(`${base}&sort=board&limit=5&cursor=${first.json().nextCursor}`, team.owner.token))
          .statusCode,
      ).toBe(200);
      const updatedCursor = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 1])).toString(
        'base64url',
      );
      expectValidation(
        await get(`${base}&sort=board&cursor=${updatedCursor}`, team.owner.token),
        '/query/cursor',
      );
      const other = await ctx.newTeam();
      expect((await get(base, other.owner.token)).statusCode).toBe(404);
      expect((await get(base, await ctx.newApiKey(other))).statusCode).toBe(404);
      expect((await get(base, await ctx.newApiKey(team))).statusCode).toBe(200);
    });
  });

  describe('links', () => {
    it('maps each album to its tracks and each track to its albums', async () => {
      const team = await ctx.newTeam();
      const [t1, t2, t3] = [await ctx.newTrack(team), await ctx.newTrack(team), await ctx.newTrack(team)];
      const zulu = await newAlbum(team, { title: 'Zulu' });
      const alpha = await newAlbum(team, { title: 'alpha' });
      const empty = await newAlbum(team, { title: 'Middle' });
      await addTracks(team, zulu.id, [t2.id, t1.id]);
      await addTracks(team, alpha.id, [t2.id]);
      const res = await get(`/api/v1/albums/links?teamId=${team.id}`, await ctx.newApiKey(team));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        albums: [
          { id: alpha.id, title: 'alpha', statusId: 'idea', trackIds: [t2.id] },
          { id: empty.id, title: 'Middle', statusId: 'idea', trackIds: [] },
          { id: zulu.id, title: 'Zulu', statusId: 'idea', trackIds: [t2.id, t1.id] },
        ],
        tracks: [
          { id: t1.id, albumIds: [zulu.id] },
          { id: t2.id, albumIds: [zulu.id, alpha.id].sort((x, y) => x - y) },
        ],
      });
      expect(res.json().tracks.some((t: { id: number }) => t.id === t3.id)).toBe(false);
      expectValidation(await get('/api/v1/albums/links', team.owner.token), '/query/teamId');
      const other = await ctx.newTeam();
      expect((await get(`/api/v1/albums/links?teamId=${team.id}`, other.owner.token)).statusCode).toBe(404);
    });
  });

  describe('delete', () => {
    it('deletes the album, keeps its tracks and closes the gap on the board', async () => {
      const team = await ctx.newTeam();
      const { album, trackIds } = await albumWithTracks(team, 2);
      const after = await newAlbum(team);
      const res = await send('DELETE', `/api/v1/albums/${album.id}`, team.owner.token);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await get(`/api/v1/albums/${album.id}`, team.owner.token)).statusCode).toBe(404);
      for (const id of trackIds)
        expect((await get(`/api/v1/tracks/${id}`, team.owner.token)).statusCode).toBe(200);
      expect(await column(team, 'idea')).toEqual([after.id]);
      expect((await send('DELETE', `/api/v1/albums/${album.id}`, team.owner.token)).statusCode).toBe(404);
      expect((await activityOf(team)).at(-1)).toEqual({
        action: 'album.deleted',
        subjectId: String(album.id),
      });
    });

    it('goes with its team', async () => {
      const team = await ctx.newTeam();
      await albumWithTracks(team, 1);
      expect((await send('DELETE', `/api/v1/teams/${team.id}`, team.owner.token)).statusCode).toBe(204);
      const left = await ctx.database.db.select().from(albums).where(eq(albums.teamId, team.id));
      expect(left).toEqual([]);
    });
  });

  describe('status', () => {
    it('moves the album to the end of another status and closes the gap it leaves', async () => {
      const team = await ctx.newTeam();
      const [a, b, c] = [await newAlbum(team), await newAlbum(team), await newAlbum(team)];
      const waiting = await newAlbum(team);
      await send('PATCH', `/api/v1/albums/${waiting.id}/status`, team.owner.token, { status: 'ready' });
      const res = await send('PATCH', `/api/v1/albums/${b.id}/status`, team.owner.token, { status: 'ready' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: b.id, statusId: 'ready', position: 1 });
      expect(await column(team, 'idea')).toEqual([a.id, c.id]);
      expect(await column(team, 'ready')).toEqual([waiting.id, b.id]);
      const same = await send('PATCH', `/api/v1/albums/${b.id}/status`, team.owner.token, {
        status: 'ready',
      });
      expect(same.json()).toMatchObject({ statusId: 'ready', position: 1 });
      expect((await activityOf(team)).filter((x) => x.action === 'album.status_changed')).toHaveLength(3);
    });

    it("accepts only the team's album statuses", async () => {
      const team = await ctx.newTeam();
      const album = await newAlbum(team);
      for (const status of ['mixing', 'nowhere']) {
        const res = await send('PATCH', `/api/v1/albums/${album.id}/status`, team.owner.token, { status });
        expectValidation(res, '/body/status');
      }
      expectValidation(
        await send('PATCH', `/api/v1/albums/${album.id}/status`, team.owner.token, { status: 'Not An Id' }),
        '/body/status',
      );
      expect((await getAlbum(team, album.id)).statusId).toBe('idea');
    });

    it('follows changes of the team status configuration', async () => {
      const team = await ctx.newTeam();
      const [a, b] = [await newAlbum(team), await newAlbum(team)];
      const kept = await newAlbum(team);
      await send('PATCH', `/api/v1/albums/${kept.id}/status`, team.owner.token, { status: 'released' });
      const albumsList = [
        { id: 'draft', name: 'Draft' },
        { id: 'released', name: 'Released' },
      ];
      const configure = (moves?: object) =>
        send('PATCH', `/api/v1/teams/${team.id}/status-config`, team.owner.token, {
          patch: { albums: albumsList, ...(moves ? { moves: { albums: moves } } : {}) },
        });
      const stranded = await configure();
      expect(stranded.statusCode).toBe(409);
      expect(stranded.json().error).toContain('idea');
      const moved = await configure({ idea: 'released' });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await column(team, 'released')).toEqual([kept.id, a.id, b.id]);
      const fresh = await newAlbum(team);
      expect(fresh).toMatchObject({ statusId: 'draft', position: 0 });
      expectValidation(
        await send('PATCH', `/api/v1/albums/${a.id}/status`, team.owner.token, { status: 'idea' }),
        '/body/status',
      );
    });
  });

  describe('collaborators', () => {
    it("unites the collaborators of the album's tracks, one entry per person with every role", async () => {
      const team = await ctx.newTeam();
      const member = await ctx.addMember(team);
      const [t1, t2, t3] = [await ctx.newTrack(team), await ctx.newTrack(team), await ctx.newTrack(team)];
      const album = await newAlbum(team);
      await addTracks(team, album.id, [t2.id, t1.id]);
      const collaborate = async (trackId: number, body: object) => {
        const res = await send('POST', `/api/v1/tracks/${trackId}/collaborators`, team.owner.token, body);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().id as number;
      };
      const m1 = await collaborate(t1.id, { userId: member.id, name: 'Mia', roles: ['vocals'] });
      const m2 = await collaborate(t2.id, {
        userId: member.id,
        name: 'Mia K.',
        roles: ['songwriter', 'vocals'],
      });
      const e1 = await collaborate(t2.id, { name: 'Ed', email: 'ed@example.test', roles: ['mixing'] });
      const e2 = await collaborate(t1.id, { name: 'Edward', email: 'ED@example.test', roles: ['mastering'] });
      const z1 = await collaborate(t1.id, { name: 'zoe', roles: ['drums'] });
      const z2 = await collaborate(t2.id, { name: 'Zoe ', roles: ['percussion'] });
      await collaborate(t3.id, { name: 'Not on the album', roles: ['bass'] });
      const res = await get(`/api/v1/albums/${album.id}/collaborators`, await ctx.newApiKey(team));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        items: [
          {
            name: 'Ed',
            userId: null,
            email: 'ed@example.test',
            roles: ['mastering', 'mixing'],
            trackIds: [t2.id, t1.id],
            collaboratorIds: [e1, e2],
          },
          {
            name: 'Mia K.',
            userId: member.id,
            email: null,
            roles: ['songwriter', 'vocals'],
            trackIds: [t2.id, t1.id],
            collaboratorIds: [m2, m1],
          },
          {
            name: 'Zoe',
            userId: null,
            email: null,
            roles: ['drums', 'percussion'],
            trackIds: [t2.id, t1.id],
            collaboratorIds: [z2, z1],
          },
        ],
        nextCursor: null,
      });
      const empty = await newAlbum(team);
      expect((await get(`/api/v1/albums/${empty.id}/collaborators`, team.owner.token)).json().items).toEqual(
        [],
      );
      const other = await ctx.newTeam();
      expect((await get(`/api/v1/albums/${album.id}/collaborators`, other.owner.token)).statusCode).toBe(404);
    });
  });
});
