import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { newStem } from '../../../../test/helpers/version-uploads.ts';
import { musicToolsHelpers } from '../../tracks/music-tools/test-support.ts';
import { DOWNLOAD_REPEAT_SECONDS } from './guest.service.ts';
import { guestHelpers, insertShareLink } from './guest.test-support.ts';

// Converting a preview runs FFmpeg at a low priority.
vi.setConfig({ testTimeout: 120_000 });

const ctx = useStorageTestContext('local');
const { trackWithAudio, viewOk, fetchPath, wayInStats, eventsOf, setLink, setStemRights } = guestHelpers(ctx);

type Audio = { streamUrl: string | null; downloadUrl: string | null; downloadable: boolean };

const play = (url: string, payload: object) => ctx.request({ method: 'POST', url: `${url}/plays`, payload });

describe('plays reported by a guest’s player', () => {
  it('counts a play per playId; later reports raise its seconds, never lower them, capped at the duration', async () => {
    const team = await ctx.newTeam();
    const { track, versionId } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, { target: { trackId: track.id } });
    const { durationSeconds } = (await viewOk(link.general.url)).items[0].version;
    const first = randomUUID();
    const report = async (playId: string, secondsListened: number) => {
      const res = await play(link.general.url, { versionId, playId, secondsListened });
      expect(res.statusCode, res.body).toBe(204);
      return wayInStats(link.general.id);
    };
    expect(await report(first, 0.1)).toMatchObject({ plays: 1, secondsListened: 0.1 });
    expect(await report(first, 0.2)).toMatchObject({ plays: 1, secondsListened: 0.2 });
    expect(await report(first, 0.05)).toMatchObject({ plays: 1, secondsListened: 0.2 });
    const second = await report(randomUUID(), 500);
    expect(second.plays).toBe(2);
    expect(second.secondsListened).toBeCloseTo(0.2 + durationSeconds, 6);

    const wrong = await play(link.general.url, {
      versionId: track.versionId,
      playId: first,
      secondsListened: 1,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details[0].path).toBe('/body/versionId');
  });
});

describe('downloads and streams through a review link', () => {
  it('allowDownload none: streams only; original: downloads the audio, counted from the first byte', async () => {
    const team = await ctx.newTeam();
    const { track, versionId } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, { target: { trackId: track.id } });
    const none = (await viewOk(link.general.url)).items[0].version as Audio;
    expect(none).toMatchObject({ downloadUrl: null, downloadable: false, streamUrl: expect.any(String) });

    await setLink(link.id, { allowDownload: 'original' });
    const original = (await viewOk(link.general.url)).items[0].version as Audio;
    expect(original.downloadable).toBe(true);
    const saved = await fetchPath(original.downloadUrl!);
    expect(saved.status).toBe(200);
    expect(saved.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(saved.body.subarray(0, 4).toString('latin1')).toBe('RIFF');
    // Seeking, HEAD and streams are not downloads.
    expect((await fetchPath(original.downloadUrl!, { headers: { range: 'bytes=100-' } })).status).toBe(206);
    expect((await fetchPath(original.downloadUrl!, { method: 'HEAD' })).status).toBe(200);
    expect((await fetchPath(original.streamUrl!)).status).toBe(200);
    // Fetching the same file again at once is the same download; later, a new one.
    expect((await fetchPath(original.downloadUrl!)).status).toBe(200);
    expect(await wayInStats(link.general.id)).toMatchObject({ downloads: 1 });
    ctx.clock.advance(DOWNLOAD_REPEAT_SECONDS * 1000);
    expect((await fetchPath(original.downloadUrl!)).status).toBe(200);
    expect(await wayInStats(link.general.id)).toMatchObject({ downloads: 2 });
    const [downloaded] = await eventsOf('share_link.downloaded', link.id);
    expect(downloaded?.payload).toEqual({
      shareLinkId: link.id,
      recipientId: link.general.id,
      recipientEmail: null,
      teamId: team.id,
      trackId: track.id,
      versionId,
      fileId: expect.any(Number),
    });

    // Downloads no longer allowed: the download URL handed out before is 404, the stream still plays.
    await setLink(link.id, { allowDownload: 'none' });
    expect((await fetchPath(original.downloadUrl!)).status).toBe(404);
    expect((await fetchPath(original.streamUrl!)).status).toBe(200);
  });

  it('allowDownload preview: the lossy preview to stream and save once the version has one', async () => {
    const team = await ctx.newTeam();
    const { runTool } = musicToolsHelpers(ctx);
    const { track, versionId } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, {
      target: { trackId: track.id },
      allowDownload: 'preview',
    });
    const without = (await viewOk(link.general.url)).items[0].version as Audio;
    expect(without).toMatchObject({ downloadUrl: null, downloadable: false });
    expect((await fetchPath(without.streamUrl!)).headers.get('content-type')).toBe('audio/wav');

    const tools = `/api/v1/tracks/${track.id}/versions/${versionId}/music-tools`;
    const job = await runTool(team, tools, { operation: 'convert', format: 'mp3' });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    const withPreview = (await viewOk(link.general.url)).items[0].version as Audio;
    expect(withPreview.downloadable).toBe(true);
    const stream = await fetchPath(withPreview.streamUrl!);
    expect(stream.headers.get('content-type')).toBe('audio/mpeg');
    const saved = await fetchPath(withPreview.downloadUrl!);
    expect(saved.status).toBe(200);
    expect(saved.headers.get('content-type')).toBe('audio/mpeg');
    const [downloaded] = await eventsOf('share_link.downloaded', link.id);
    expect(downloaded?.payload).toMatchObject({ versionId, fileId: job.result.fileId });
    // The original is not handed out: the earlier stream URL of the original audio no longer plays.
    expect((await fetchPath(without.streamUrl!)).status).toBe(404);
  });

  it('shows the allowed stems only; a restricted stem shows downloadable false and no URLs', async () => {
    const team = await ctx.newTeam();
    const { track, versionId } = await trackWithAudio(team);
    const trackRef = { ...track, versionId };
    const drums = await newStem(ctx, team, trackRef, versionId, 'Drums');
    const bass = await newStem(ctx, team, trackRef, versionId, 'Bass');
    const vocals = await newStem(ctx, team, trackRef, versionId, 'Vocals');
    const link = await insertShareLink(ctx, team, {
      target: { trackId: track.id },
      allowDownload: 'original',
      allowStems: [drums.id, bass.id],
    });
    await setStemRights(bass.id, true, ['member']);
    const stems = (await viewOk(link.general.url)).items[0].stems;
    expect(stems.map((s: { id: number }) => s.id)).toEqual([drums.id, bass.id]);
    expect(stems).not.toContainEqual(expect.objectContaining({ id: vocals.id }));
    expect(stems[0]).toMatchObject({ name: 'Drums', downloadable: true, streamUrl: expect.any(String) });
    expect(stems[1]).toMatchObject({ name: 'Bass', downloadable: false, streamUrl: null, downloadUrl: null });
    expect(stems[1].peaks).toBeDefined();

    const saved = await fetchPath(stems[0].downloadUrl);
    expect(saved.status).toBe(200);
    const [downloaded] = await eventsOf('share_link.downloaded', link.id);
    expect(downloaded?.payload).toMatchObject({ versionId, stemId: drums.id });

    // A stem that becomes restricted: its URLs handed out before answer 404 at once.
    await setStemRights(drums.id, true, ['admin']);
    expect((await fetchPath(stems[0].downloadUrl)).status).toBe(404);
    expect((await fetchPath(stems[0].streamUrl, { method: 'HEAD' })).status).toBe(404);
    // Rights that let review links have it bring it back.
    await setStemRights(drums.id, true, ['review_link']);
    expect((await fetchPath(stems[0].streamUrl)).status).toBe(200);
    // A stem taken off the link: 404 too.
    await setLink(link.id, { allowStems: [bass.id] });
    expect((await fetchPath(stems[0].streamUrl)).status).toBe(404);
  });
});
