import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { albums, albumTracks } from '../../db/schema/index.ts';

const ctx = useTestContext();
const { newAlbum, albumWithTracks, getAlbum } = albumHelpers(ctx);

const post = (url: string, token: string, payload: object) =>
  ctx.request({ method: 'POST', url, token, payload });
const reorderBoard = (team: TestTeam, status_id: string, ids: number[], token = team.owner.token) =>
  post('/api/v1/albums/reorder', token, {
    status_id,
    album_orders: ids.map((albumId, order) => ({ albumId, order })),
  });
const reorderTracks = (team: TestTeam, albumId: number, ids: number[]) =>
  post(`/api/v1/albums/${albumId}/tracks/reorder`, team.owner.token, {
    trackOrders: ids.map((trackId, order) => ({ trackId, order })),
  });

/** Ids in stored order, after checking the positions are exactly 0..n-1. */
function gapless(rows: { id: number; position: number }[]): number[] {
  expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i));
  return rows.map((r) => r.id);
}

async function boardColumn(team: TestTeam, statusId: string) {
  const rows = await ctx.database.db
    .select({ id: albums.id, position: albums.position })
    .from(albums)
    .where(and(eq(albums.teamId, team.id), eq(albums.statusId, statusId)))
    .orderBy(asc(albums.position), asc(albums.id));
  return gapless(rows);
}

async function albumOrder(albumId: number) {
  const rows = await ctx.database.db
    .select({ id: albumTracks.trackId, position: albumTracks.position })
    .from(albumTracks)
    .where(eq(albumTracks.albumId, albumId))
    .orderBy(asc(albumTracks.position), asc(albumTracks.trackId));
  return gapless(rows);
}

/** A few different orders of `ids`: rotations, every other one reversed. */
function orders(ids: number[], count: number): number[][] {
  return Array.from({ length: count }, (_, i) => {
    const rotated = [...ids.slice(i % ids.length), ...ids.slice(0, i % ids.length)];
    return i % 2 ? rotated.reverse() : rotated;
  });
}

describe('board order of albums', () => {
  it('applies a permutation of one status column', async () => {
    const team = await ctx.newTeam();
    const [a, b, c] = [await newAlbum(team), await newAlbum(team), await newAlbum(team)];
    const res = await post('/api/v1/albums/reorder', team.owner.token, {
      status_id: 'idea',
      album_orders: [
        { albumId: a.id, order: 30 },
        { albumId: b.id, order: 10 },
        { albumId: c.id, order: 20 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ statusId: 'idea', albumIds: [b.id, c.id, a.id] });
    expect(await boardColumn(team, 'idea')).toEqual([b.id, c.id, a.id]);
    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/albums/?teamId=${team.id}&sort=board`,
      token: team.owner.token,
    });
    expect(list.json().items.map((x: { id: number }) => x.id)).toEqual([b.id, c.id, a.id]);
  });

  it('refuses duplicates, foreign ids, other statuses and partial lists (400) and changes nothing', async () => {
    const team = await ctx.newTeam();
    const [a, b] = [await newAlbum(team), await newAlbum(team)];
    const ready = await newAlbum(team);
    await ctx.request({
      method: 'PATCH',
      url: `/api/v1/albums/${ready.id}/status`,
      token: team.owner.token,
      payload: { status: 'ready' },
    });
    const foreign = await newAlbum(await ctx.newTeam());
    const before = await boardColumn(team, 'idea');
    const bodies: [number, number][][] = [
      [
        [a.id, 1],
        [a.id, 2],
      ],
      [
        [a.id, 1],
        [b.id, 1],
      ],
      [
        [a.id, 1],
        [b.id, 2],
        [foreign.id, 3],
      ],
      [
        [a.id, 1],
        [b.id, 2],
        [ready.id, 3],
      ],
      [[a.id, 1]],
    ];
    for (const pairs of bodies) {
      const res = await post('/api/v1/albums/reorder', team.owner.token, {
        status_id: 'idea',
        album_orders: pairs.map(([albumId, order]) => ({ albumId, order })),
      });
      expect(res.statusCode, JSON.stringify(pairs)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details[0].path).toMatch(/^\/body\/albumOrders/);
    }
    const unknown = await reorderBoard(team, 'mixing', [a.id, b.id]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].path).toBe('/body/statusId');
    for (const payload of [
      { status_id: 'idea', album_orders: [] },
      { status_id: 'idea' },
      { status_id: 'idea', album_orders: [{ albumId: a.id, order: -1 }] },
      { status_id: 'idea', album_orders: [{ albumId: a.id, order: 0, extra: 1 }] },
    ]) {
      expect((await post('/api/v1/albums/reorder', team.owner.token, payload)).statusCode).toBe(400);
    }
    // The board is the team of the first album the caller sees; another team's or a missing album in any
    // place is 400 like any id that is not on that board, and 404 when the caller sees none of them.
    for (const ids of [
      [foreign.id, a.id, b.id],
      [2_000_000_000, a.id, b.id],
    ]) {
      const res = await reorderBoard(team, 'idea', ids);
      expect(res.statusCode, JSON.stringify(ids)).toBe(400);
      expect(res.json().details[0].path).toMatch(/^\/body\/albumOrders/);
    }
    expect((await reorderBoard(team, 'idea', [foreign.id])).statusCode).toBe(404);
    expect((await reorderBoard(team, 'idea', [2_000_000_000])).statusCode).toBe(404);
    expect(await boardColumn(team, 'idea')).toEqual(before);
  });
});

describe('track order of an album', () => {
  it('applies a permutation; soft-deleted tracks keep out of the way', async () => {
    const team = await ctx.newTeam();
    const { album, trackIds } = await albumWithTracks(team, 4);
    const [t1, t2, t3, t4] = trackIds as [number, number, number, number];
    await ctx.request({ method: 'DELETE', url: `/api/v1/tracks/${t2}`, token: team.owner.token });
    const res = await reorderTracks(team, album.id, [t4, t1, t3]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ albumId: album.id, trackIds: [t4, t1, t3] });
    expect((await getAlbum(team, album.id)).tracks.map((t: { id: number }) => t.id)).toEqual([t4, t1, t3]);
    expect(await albumOrder(album.id)).toEqual([t4, t1, t3, t2]);
    await ctx.request({ method: 'POST', url: `/api/v1/tracks/${t2}/restore`, token: team.owner.token });
    expect((await getAlbum(team, album.id)).tracks.map((t: { id: number }) => t.id)).toEqual([
      t4,
      t1,
      t3,
      t2,
    ]);
  });

  it('refuses anything but a permutation of its tracks (400) and changes nothing', async () => {
    const team = await ctx.newTeam();
    const { album, trackIds } = await albumWithTracks(team, 3);
    const [t1, t2, t3] = trackIds as [number, number, number];
    const notOnIt = await ctx.newTrack(team);
    for (const ids of [
      [t1, t1, t2],
      [t1, t2],
      [t1, t2, t3, notOnIt.id],
      [t1, t2, notOnIt.id],
    ]) {
      const res = await reorderTracks(team, album.id, ids);
      expect(res.statusCode, JSON.stringify(ids)).toBe(400);
      expect(res.json().details[0].path).toMatch(/^\/body\/trackOrders/);
    }
    const sameOrder = await post(`/api/v1/albums/${album.id}/tracks/reorder`, team.owner.token, {
      trackOrders: [
        { trackId: t1, order: 1 },
        { trackId: t2, order: 1 },
        { trackId: t3, order: 2 },
      ],
    });
    expect(sameOrder.statusCode).toBe(400);
    expect(sameOrder.json().details).toEqual([
      { path: '/body/trackOrders/1/order', message: 'repeats an order' },
    ]);
    expect(await albumOrder(album.id)).toEqual([t1, t2, t3]);
    const other = await ctx.newTeam();
    const foreign = await post(`/api/v1/albums/${album.id}/tracks/reorder`, other.owner.token, {
      trackOrders: [{ trackId: t1, order: 0 }],
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('concurrent changes', () => {
  it('applies concurrent reorders of one album one after another: one of them wins whole', async () => {
    const team = await ctx.newTeam();
    const { album, trackIds } = await albumWithTracks(team, 8);
    const wanted = orders(trackIds, 10);
    const results = await Promise.all(wanted.map((ids) => reorderTracks(team, album.id, ids)));
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    const final = await albumOrder(album.id);
    expect(wanted.map((ids) => ids.join())).toContain(final.join());
  });

  it('keeps an album gapless and unique under concurrent adds, removes and reorders', async () => {
    const team = await ctx.newTeam();
    const { album, trackIds } = await albumWithTracks(team, 6);
    const extra = [await ctx.newTrack(team), await ctx.newTrack(team), await ctx.newTrack(team)];
    const removed = [trackIds[0]!, trackIds[3]!];
    const results = await Promise.all([
      ...orders(trackIds, 4).map((ids) => reorderTracks(team, album.id, ids)),
      ...extra.map((t) => post(`/api/v1/albums/${album.id}/tracks`, team.owner.token, { trackIds: [t.id] })),
      ...removed.map((id) =>
        ctx.request({
          method: 'DELETE',
          url: `/api/v1/albums/${album.id}/tracks/${id}`,
          token: team.owner.token,
        }),
      ),
      // The same track added twice at once: exactly one wins.
      post(`/api/v1/albums/${album.id}/tracks`, team.owner.token, { trackIds: [extra[0]!.id] }),
    ]);
    for (const res of results) expect([200, 204, 400, 409], res.body).toContain(res.statusCode);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(1);
    const final = await albumOrder(album.id);
    const expected = [...trackIds.filter((id) => !removed.includes(id)), ...extra.map((t) => t.id)];
    expect([...final].sort((x, y) => x - y)).toEqual(expected.sort((x, y) => x - y));
    expect((await getAlbum(team, album.id)).trackCount).toBe(expected.length);
  });

  it('keeps every board column gapless under concurrent creates, moves and reorders', async () => {
    const team = await ctx.newTeam();
    const created = await Promise.all(Array.from({ length: 8 }, () => newAlbum(team)));
    expect(await boardColumn(team, 'idea')).toHaveLength(8);
    const ids = created.map((a) => a.id);
    const moving = ids.slice(0, 4);
    const results = await Promise.all([
      ...moving.map((id) =>
        ctx.request({
          method: 'PATCH',
          url: `/api/v1/albums/${id}/status`,
          token: team.owner.token,
          payload: { status: 'ready' },
        }),
      ),
      ...orders(ids, 3).map((order) => reorderBoard(team, 'idea', order)),
      ...Array.from({ length: 3 }, () =>
        post('/api/v1/albums/', team.owner.token, { title: 'Late', teamId: team.id }),
      ),
      ctx.request({ method: 'DELETE', url: `/api/v1/albums/${ids[7]}`, token: team.owner.token }),
    ]);
    for (const res of results) expect([200, 201, 204, 400], res.body).toContain(res.statusCode);
    const idea = await boardColumn(team, 'idea');
    const ready = await boardColumn(team, 'ready');
    expect([...ready].sort((x, y) => x - y)).toEqual([...moving].sort((x, y) => x - y));
    expect(idea).toHaveLength(8 - 4 - 1 + 3);
  });

  it('lets the status configuration move albums while they change, without deadlocks', async () => {
    const team = await ctx.newTeam();
    const { album, trackIds } = await albumWithTracks(team, 3);
    const others = [await newAlbum(team), await newAlbum(team), await newAlbum(team)];
    const extra = await ctx.newTrack(team);
    const patch = (url: string, payload: object) =>
      ctx.request({ method: 'PATCH', url, token: team.owner.token, payload });
    const reorder = reorderTracks(team, album.id, [...trackIds].reverse());
    const results = await Promise.all([
      patch(`/api/v1/albums/${album.id}`, { title: 'Renamed' }),
      post(`/api/v1/albums/${album.id}/tracks`, team.owner.token, { trackIds: [extra.id] }),
      patch(`/api/v1/teams/${team.id}/status-config`, {
        patch: {
          albums: [
            { id: 'draft', name: 'Draft' },
            { id: 'ready', name: 'Ready' },
          ],
          moves: { albums: { idea: 'draft' } },
        },
      }),
      ...others.map((a) => patch(`/api/v1/albums/${a.id}/status`, { status: 'ready' })),
      ...others.map((a) => patch(`/api/v1/albums/${a.id}`, { genre: 'pop' })),
      post('/api/v1/albums/', team.owner.token, { title: 'Late', teamId: team.id }),
    ]);
    for (const res of results) expect([200, 201], res.body).toContain(res.statusCode);
    // Racing the add, a reorder listing the three earlier tracks may come after it and be refused.
    expect([200, 400]).toContain((await reorder).statusCode);
    const draft = await boardColumn(team, 'draft');
    const ready = await boardColumn(team, 'ready');
    expect(draft.length + ready.length).toBe(5);
    expect([...ready].sort((x, y) => x - y)).toEqual(others.map((a) => a.id).sort((x, y) => x - y));
    expect(await albumOrder(album.id)).toHaveLength(4);
  });
});

describe('field names of the board order', () => {
  it('takes statusId/albumOrders as well as the specification’s status_id/album_orders', async () => {
    const team = await ctx.newTeam();
    const [a, b] = [await newAlbum(team), await newAlbum(team)];
    const camel = await post('/api/v1/albums/reorder', team.owner.token, {
      statusId: 'idea',
      albumOrders: [
        { albumId: b.id, order: 0 },
        { albumId: a.id, order: 1 },
      ],
    });
    expect(camel.statusCode, camel.body).toBe(200);
    expect(camel.json()).toEqual({ statusId: 'idea', albumIds: [b.id, a.id] });
    expect((await reorderBoard(team, 'idea', [a.id, b.id])).json().albumIds).toEqual([a.id, b.id]);
    const conflict = await post('/api/v1/albums/reorder', team.owner.token, {
      statusId: 'idea',
      status_id: 'ready',
      albumOrders: [{ albumId: a.id, order: 0 }],
    });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.json().details.map((d: { path: string }) => d.path)).toEqual(['/body/status_id']);
    const neither = await post('/api/v1/albums/reorder', team.owner.token, { statusId: 'idea' });
    expect(neither.json().details).toEqual([
      { path: '/body/albumOrders', message: 'is required (or its older name album_orders)' },
    ]);
    const stranger = await ctx.newTeam();
    const hidden = await post('/api/v1/albums/reorder', stranger.owner.token, {
      statusId: 'idea',
      albumOrders: [
        { albumId: a.id, order: 0 },
        { albumId: b.id, order: 1 },
      ],
    });
    expect(hidden.statusCode).toBe(404);
  });
});
