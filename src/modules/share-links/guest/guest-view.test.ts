import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../../test/helpers/albums.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { callWith, versionsBase } from '../../../../test/helpers/version-uploads.ts';
import { OPEN_REPEAT_SECONDS } from './guest.service.ts';
import { guestHelpers, insertShareLink } from './guest.test-support.ts';

const ctx = useStorageTestContext('local');
const call = callWith(ctx);
const { trackWithAudio, view, viewOk, fetchPath, wayInStats, eventsOf } = guestHelpers(ctx);

describe('the guest view of a review link', () => {
  it('shows a track link: the track, its newest version with waveform and a stream URL, no download', async () => {
    const team = await ctx.newTeam();
    const { track, versionId } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, {
      target: { trackId: track.id },
      title: 'Night Drive for Ana',
      message: 'Notes welcome',
    });
    const body = await viewOk(link.general.url);
    expect(body.link).toEqual({
      title: 'Night Drive for Ana',
      message: 'Notes welcome',
      expiresAt: null,
      allowDownload: 'none',
      allowComments: false,
      team: { name: team.name },
    });
    expect(body.items).toHaveLength(1);
    const [item] = body.items;
    expect(item.track).toMatchObject({ id: track.id, title: track.title });
    expect(item.version).toMatchObject({
      id: versionId,
      downloadUrl: null,
      downloadable: false,
      durationSeconds: expect.any(Number),
    });
    expect(item.version.peaks.status).toBeDefined();
    expect(item.stems).toEqual([]);
    const stream = await fetchPath(item.version.streamUrl);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-disposition')).toMatch(/^inline/);
  });

  it('follows the track: the final version once there is one, and the URLs of the earlier one end', async () => {
    const team = await ctx.newTeam();
    const { track, versionId } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, { target: { trackId: track.id } });
    const before = (await viewOk(link.general.url)).items[0].version;
    expect(before.id).toBe(versionId);
    const final = await call('PATCH', `${versionsBase(track)}/${track.versionId}/final`, team.owner.token);
    expect(final.statusCode, final.body).toBe(200);
    const after = (await viewOk(link.general.url)).items[0].version;
    expect(after).toMatchObject({ id: track.versionId, streamUrl: null });
    expect((await fetchPath(before.streamUrl)).status).toBe(404);
  });

  it('shows a version link: that version, even when the track has a newer one', async () => {
    const team = await ctx.newTeam();
    const { track, versionId } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, { target: { versionId, trackId: track.id } });
    await ctx.newVersion(track, { name: 'Mix 9' });
    const body = await viewOk(link.general.url);
    expect(body.items.map((i: { version: { id: number } }) => i.version.id)).toEqual([versionId]);
  });

  it('shows an album link: its tracks in album order, each with its final or newest version', async () => {
    const team = await ctx.newTeam();
    const albums = albumHelpers(ctx);
    const first = await trackWithAudio(team);
    const second = await trackWithAudio(team);
    const album = await albums.newAlbum(team);
    await albums.addTracks(team, album.id, [second.track.id, first.track.id]);
    const link = await insertShareLink(ctx, team, { target: { albumId: album.id } });
    const body = await viewOk(link.general.url);
    expect(
      body.items.map((i: { track: { id: number }; version: { id: number } }) => [i.track.id, i.version.id]),
    ).toEqual([
      [second.track.id, second.versionId],
      [first.track.id, first.versionId],
    ]);
  });

  it('shows a playlist in its order, leaves deleted tracks out, and is gone with its last track', async () => {
    const team = await ctx.newTeam();
    const [a, b, c] = [await trackWithAudio(team), await trackWithAudio(team), await trackWithAudio(team)];
    const link = await insertShareLink(ctx, team, {
      target: { trackIds: [c.track.id, a.track.id, b.track.id] },
    });
    const ids = async () =>
      (await viewOk(link.general.url)).items.map((i: { track: { id: number } }) => i.track.id);
    expect(await ids()).toEqual([c.track.id, a.track.id, b.track.id]);
    expect((await call('DELETE', `/api/v1/tracks/${a.track.id}`, team.owner.token)).statusCode).toBe(204);
    expect(await ids()).toEqual([c.track.id, b.track.id]);
    for (const t of [b, c])
      expect(
        (await call('DELETE', `/api/v1/tracks/${t.track.id}?mode=hard`, team.owner.token)).statusCode,
      ).toBe(204);
    expect((await view(link.general.url)).statusCode).toBe(404);
  });

  it('counts opens per way in, once per visit, and records the first open as share_link.opened', async () => {
    const team = await ctx.newTeam();
    const { track } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, {
      target: { trackId: track.id },
      recipients: ['ana@label.test'],
    });
    const [ana] = link.recipients;
    await viewOk(link.general.url);
    await viewOk(link.general.url);
    expect(await wayInStats(link.general.id)).toMatchObject({ opens: 1, firstSeenAt: ctx.clock.now() });
    ctx.clock.advance((OPEN_REPEAT_SECONDS + 1) * 1000);
    await viewOk(link.general.url);
    await viewOk(ana!.url);
    expect(await wayInStats(link.general.id)).toMatchObject({ opens: 2, lastSeenAt: ctx.clock.now() });
    expect(await wayInStats(ana!.id)).toMatchObject({ opens: 1 });
    const opened = await eventsOf('share_link.opened', link.id);
    expect(opened.map((e) => e.payload)).toEqual(
      expect.arrayContaining([
        {
          shareLinkId: link.id,
          recipientId: link.general.id,
          recipientEmail: null,
          teamId: team.id,
          trackId: track.id,
          versionId: null,
        },
        expect.objectContaining({ recipientId: ana!.id, recipientEmail: 'ana@label.test' }),
      ]),
    );
    expect(opened).toHaveLength(2);
    expect(opened[0]).toMatchObject({ teamId: team.id, actorUserId: null, actorKeyId: null });
  });

  it('answers 404 to unknown, malformed and altered tokens alike', async () => {
    const team = await ctx.newTeam();
    const { track } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, { target: { trackId: track.id } });
    const token = link.general.token;
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const answers = await Promise.all(
      [altered, 'x'.repeat(44), 'short', `${token}x`].map((t) => view(`/api/v1/shared/${t}`)),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: 'Review link not found',
        code: 'not_found',
      });
    }
  });
});
