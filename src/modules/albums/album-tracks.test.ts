import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { albumTracks, domainEvents } from '../../db/schema/index.ts';

const ctx = useTestContext();
const { newAlbum, addTracks, albumWithTracks, getAlbum } = albumHelpers(ctx);

const add = (team: TestTeam, albumId: number, trackIds: unknown, token = team.owner.token) =>
  ctx.request({ method: 'POST', url: `/api/v1/albums/${albumId}/tracks`, token, payload: { trackIds } });
const removeTrack = (team: TestTeam, albumId: number, trackId: number, token = team.owner.token) =>
  ctx.request({ method: 'DELETE', url: `/api/v1/albums/${albumId}/tracks/${trackId}`, token });

const idsOf = (detail: { tracks: { id: number }[] }) => detail.tracks.map((t) => t.id);

/** The stored positions of the album's entries, checked to be 0..n-1. */
async function storedOrder(albumId: number) {
  const rows = await ctx.database.db
    .select({ trackId: albumTracks.trackId, position: albumTracks.position })
    .from(albumTracks)
    .where(eq(albumTracks.albumId, albumId))
    .orderBy(asc(albumTracks.position));
  expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i));
  return rows.map((r) => r.trackId);
}

/** A team whose owner also belongs to `home`, with a track of `home` shared to it. */
async function sharedTrackSetup() {
  const home = await ctx.newTeam();
  const guest = await ctx.newTeam(home.owner);
  const track = await ctx.newTrack(home);
  await ctx.shareTrack(track.id, guest.id, home.owner.token);
  return { home, guest, track };
}

describe('the tracks of an album', () => {
  describe('add', () => {
    it('appends tracks in the order given and answers the album', async () => {
      const team = await ctx.newTeam();
      const [a, b, c] = [await ctx.newTrack(team), await ctx.newTrack(team), await ctx.newTrack(team)];
      const album = await newAlbum(team);
      const first = await add(team, album.id, [b.id]);
      expect(first.statusCode, first.body).toBe(200);
      expect(idsOf(first.json())).toEqual([b.id]);
      const res = await add(team, album.id, [c.id, a.id]);
      expect(res.json()).toMatchObject({ id: album.id, trackCount: 3 });
      expect(idsOf(res.json())).toEqual([b.id, c.id, a.id]);
      expect(res.json().tracks.map((t: { position: number }) => t.position)).toEqual([0, 1, 2]);
      expect(await storedOrder(album.id)).toEqual([b.id, c.id, a.id]);
      const activity = await ctx.database.db
        .select({ action: domainEvents.type, data: domainEvents.payload })
        .from(domainEvents)
        .where(and(eq(domainEvents.teamId, team.id), eq(domainEvents.type, 'album.tracks_added')))
        .orderBy(asc(domainEvents.position));
      const ofAlbum = { albumId: album.id, teamId: team.id };
      expect(activity.map((e) => e.data)).toEqual([
        { ...ofAlbum, trackIds: [b.id] },
        { ...ofAlbum, trackIds: [c.id, a.id] },
      ]);
    });

    it('refuses a repeated id (400) and a track already on the album (409), adding nothing', async () => {
      const team = await ctx.newTeam();
      const [a, b] = [await ctx.newTrack(team), await ctx.newTrack(team)];
      const album = await newAlbum(team);
      await addTracks(team, album.id, [a.id]);
      const repeated = await add(team, album.id, [b.id, b.id]);
      expect(repeated.statusCode).toBe(400);
      expect(repeated.json().details).toEqual([{ path: '/body/trackIds/1', message: 'is listed twice' }]);
      const already = await add(team, album.id, [b.id, a.id]);
      expect(already.statusCode).toBe(409);
      expect(already.json()).toMatchObject({
        code: 'conflict',
        error: expect.stringContaining(String(a.id)),
      });
      expect(idsOf(await getAlbum(team, album.id))).toEqual([a.id]);
      for (const body of [[], ['x'], [0], 'nope']) {
        const res = await add(team, album.id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
    });

    it("refuses another team's unshared track, a missing and a deleted one with 400 naming the index", async () => {
      const team = await ctx.newTeam();
      const mine = await ctx.newTrack(team);
      const gone = await ctx.newTrack(team);
      await ctx.request({ method: 'DELETE', url: `/api/v1/tracks/${gone.id}`, token: team.owner.token });
      const foreign = await ctx.newTrack(await ctx.newTeam());
      const album = await newAlbum(team);
      const res = await add(team, album.id, [mine.id, foreign.id, 99_999_999, gone.id]);
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toEqual([
        '/body/trackIds/1',
        '/body/trackIds/2',
        '/body/trackIds/3',
      ]);
      expect(res.json().details[0].message).toBe('is not a track of this team or shared with it');
      expect(idsOf(await getAlbum(team, album.id))).toEqual([]);
    });

    it('takes a track shared with the team, but not into an album of the team it was not shared with', async () => {
      const { home, guest, track } = await sharedTrackSetup();
      const guestAlbum = await newAlbum(guest);
      const res = await add(guest, guestAlbum.id, [track.id]);
      expect(res.statusCode, res.body).toBe(200);
      expect(idsOf(res.json())).toEqual([track.id]);
      const links = await ctx.request({
        method: 'GET',
        url: `/api/v1/albums/links?teamId=${guest.id}`,
        token: guest.owner.token,
      });
      expect(links.json().tracks).toEqual([{ id: track.id, albumIds: [guestAlbum.id] }]);
      // The owning team does not see the guest's album.
      const homeLinks = await ctx.request({
        method: 'GET',
        url: `/api/v1/albums/links?teamId=${home.id}`,
        token: home.owner.token,
      });
      expect(homeLinks.json()).toEqual({ albums: [], tracks: [] });

      const elsewhere = await ctx.newTeam(home.owner);
      const unshared = await add(elsewhere, (await newAlbum(elsewhere)).id, [track.id]);
      expect(unshared.statusCode).toBe(400);
    });

    it("answers 404 for another team's album and needs a session", async () => {
      const team = await ctx.newTeam();
      const track = await ctx.newTrack(team);
      const album = await newAlbum(team);
      const other = await ctx.newTeam();
      expect((await add(team, album.id, [track.id], other.owner.token)).statusCode).toBe(404);
      const key = await ctx.newApiKey(team, ['albums:write']);
      const withKey = await add(team, album.id, [track.id], key);
      expect(withKey.statusCode).toBe(403);
      expect(withKey.json().code).toBe('session_required');
    });
  });

  describe('remove', () => {
    it('takes the track off, keeps the track and closes the gap', async () => {
      const team = await ctx.newTeam();
      const { album, trackIds } = await albumWithTracks(team, 4);
      const res = await removeTrack(team, album.id, trackIds[1]!);
      expect(res.statusCode).toBe(204);
      expect(await storedOrder(album.id)).toEqual([trackIds[0], trackIds[2], trackIds[3]]);
      const track = await ctx.request({
        method: 'GET',
        url: `/api/v1/tracks/${trackIds[1]}`,
        token: team.owner.token,
      });
      expect(track.statusCode).toBe(200);
      expect((await removeTrack(team, album.id, trackIds[1]!)).statusCode).toBe(404);
      const other = await ctx.newTeam();
      expect((await removeTrack(team, album.id, trackIds[0]!, other.owner.token)).statusCode).toBe(404);
      const bad = await ctx.request({
        method: 'DELETE',
        url: `/api/v1/albums/${album.id}/tracks/x`,
        token: team.owner.token,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].path).toBe('/params/trackId');
      // Appending after a removal continues without a gap.
      const extra = await ctx.newTrack(team);
      await addTracks(team, album.id, [extra.id]);
      expect(await storedOrder(album.id)).toEqual([trackIds[0], trackIds[2], trackIds[3], extra.id]);
    });
  });
});
