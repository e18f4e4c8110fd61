import { describe, expect, it } from 'vitest';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { DOWNLOAD_REPEAT_SECONDS } from './guest.service.ts';
import { guestHelpers, insertShareLink } from './guest.test-support.ts';

/** With S3 a guest's URL still points at the service, which checks the link, counts, and sends the client on. */
const ctx = useStorageTestContext('s3');
const { trackWithAudio, viewOk, wayInStats, eventsOf, setLink } = guestHelpers(ctx);

describe('review link audio with S3 storage', () => {
  it('redirects live URLs to the bucket, counts downloads, and answers 404 once the link is revoked', async () => {
    const team = await ctx.newTeam();
    const { track } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, {
      target: { trackId: track.id },
      allowDownload: 'original',
    });
    const { streamUrl, downloadUrl } = (await viewOk(link.general.url)).items[0].version;
    for (const url of [streamUrl, downloadUrl]) {
      const local = new URL(url);
      expect(local.pathname).toBe('/api/v1/files/download');
      const redirect = await ctx.request({ method: 'GET', url: local.pathname + local.search });
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers['cache-control']).toBe('no-store');
      expect(new URL(String(redirect.headers.location)).searchParams.has('X-Amz-Signature')).toBe(true);
    }
    // The redirect counted the download; fetching it again at once is the same one, later a new one.
    const followed = await ctx.fetchUrl(downloadUrl);
    expect(followed.status).toBe(200);
    expect(followed.body.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(await wayInStats(link.general.id)).toMatchObject({ downloads: 1 });
    ctx.clock.advance(DOWNLOAD_REPEAT_SECONDS * 1000);
    expect((await ctx.fetchUrl(downloadUrl)).status).toBe(200);
    expect(await wayInStats(link.general.id)).toMatchObject({ downloads: 2 });
    expect(await eventsOf('share_link.downloaded', link.id)).toHaveLength(2);

    await setLink(link.id, { revokedAt: ctx.clock.now() });
    for (const url of [streamUrl, downloadUrl]) {
      const local = new URL(url);
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await ctx.request({ method, url: local.pathname + local.search });
        expect(res.statusCode).toBe(404);
        expect(res.headers.location).toBeUndefined();
      }
    }
    expect(await wayInStats(link.general.id)).toMatchObject({ downloads: 2 });
  });
});
