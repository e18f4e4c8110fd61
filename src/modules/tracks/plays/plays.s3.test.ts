import { describe, expect, it } from 'vitest';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { callWith, registerVersionAudio, versionsBase } from '../../../../test/helpers/version-uploads.ts';

/** With S3 the stream URL still points at the service, which counts the play and sends the client on. */
const ctx = useStorageTestContext('s3');
const call = callWith(ctx);

describe('plays with S3 storage', () => {
  it('records a play and redirects to the bucket; unmarked URLs go to the bucket directly', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const version = await registerVersionAudio(ctx, team, track);
    const base = `${versionsBase(track)}/${version.id}`;
    const { audio } = (await call('GET', `${base}/detail`, team.owner.token)).json();
    expect(new URL(audio.url).pathname).toBe('/api/v1/files/download');
    expect(new URL(audio.downloadUrl).searchParams.has('X-Amz-Signature')).toBe(true);

    const local = new URL(audio.url);
    const redirect = await ctx.request({ method: 'GET', url: local.pathname + local.search });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers['cache-control']).toBe('no-store');
    expect(new URL(String(redirect.headers.location)).searchParams.has('X-Amz-Signature')).toBe(true);

    const followed = await ctx.fetchUrl(audio.url, { headers: { range: 'bytes=0-9' } });
    expect(followed.status).toBe(206);
    expect(followed.body.length).toBe(10);
    const plays = (await call('GET', `${base}/plays`, team.owner.token)).json();
    expect(plays.items).toMatchObject([{ userId: team.owner.id }]);
  });
});
