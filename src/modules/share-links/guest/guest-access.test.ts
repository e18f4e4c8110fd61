import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { callWith, versionsBase } from '../../../../test/helpers/version-uploads.ts';
import { shareLinkRecipients } from '../../../db/schema/index.ts';
import { Passwords } from '../../auth/passwords.ts';
import { UNLOCK_LIMITS } from './guest.service.ts';
import { guestHelpers, insertShareLink } from './guest.test-support.ts';
import { GUEST_TOKEN_SECONDS } from './guest-tokens.ts';

const ctx = useStorageTestContext('local');
const call = callWith(ctx);
const { trackWithAudio, view, viewOk, fetchPath, setLink } = guestHelpers(ctx);

/** A link allowing original downloads of a track with audio, with the URLs its view hands out. */
async function linkWithUrls(spec: { password?: string; recipients?: string[] } = {}) {
  const team = await ctx.newTeam();
  const { track, versionId } = await trackWithAudio(team);
  const link = await insertShareLink(ctx, team, {
    target: { trackId: track.id },
    allowDownload: 'original',
    ...spec,
  });
  return { team, track, versionId, link };
}

const urlsOf = (body: { items: { version: { streamUrl: string; downloadUrl: string } }[] }) => {
  const { streamUrl, downloadUrl } = body.items[0]!.version;
  return { streamUrl, downloadUrl };
};

/** Every way a handed-out URL can be fetched answers 404. */
async function expectUrlsGone(urls: { streamUrl: string; downloadUrl: string }) {
  for (const url of [urls.streamUrl, urls.downloadUrl]) {
    expect((await fetchPath(url)).status).toBe(404);
    expect((await fetchPath(url, { method: 'HEAD' })).status).toBe(404);
    expect((await fetchPath(url, { headers: { range: 'bytes=10-20' } })).status).toBe(404);
  }
}

describe('review links that ended', () => {
  it('a revoked link is 404 at once, and so are the URLs it handed out before', async () => {
    const { link } = await linkWithUrls();
    const urls = urlsOf(await viewOk(link.general.url));
    expect((await fetchPath(urls.downloadUrl)).status).toBe(200);
    await setLink(link.id, { revokedAt: ctx.clock.now() });
    expect((await view(link.general.url)).json()).toEqual({
      error: 'Review link not found',
      code: 'not_found',
    });
    expect((await view(link.general.url)).statusCode).toBe(404);
    await expectUrlsGone(urls);
  });

  it('an expired link is 404, with its URLs', async () => {
    const { link } = await linkWithUrls();
    await setLink(link.id, { expiresAt: new Date(ctx.clock.now().getTime() + 60_000) });
    const urls = urlsOf(await viewOk(link.general.url));
    ctx.clock.advance(60_000);
    expect((await view(link.general.url)).statusCode).toBe(404);
    await expectUrlsGone(urls);
  });

  it('a link whose track was deleted is 404, with its URLs; a version link goes with its version', async () => {
    const { team, track, versionId, link } = await linkWithUrls();
    const versionLink = await insertShareLink(ctx, team, { target: { versionId, trackId: track.id } });
    const urls = urlsOf(await viewOk(link.general.url));
    await viewOk(versionLink.general.url);
    expect((await call('DELETE', `/api/v1/tracks/${track.id}`, team.owner.token)).statusCode).toBe(204);
    expect((await view(link.general.url)).statusCode).toBe(404);
    expect((await view(versionLink.general.url)).statusCode).toBe(404);
    await expectUrlsGone(urls);
    expect((await call('POST', `/api/v1/tracks/${track.id}/restore`, team.owner.token)).statusCode).toBe(200);
    await viewOk(versionLink.general.url);
    expect((await call('DELETE', `${versionsBase(track)}/${versionId}`, team.owner.token)).statusCode).toBe(
      204,
    );
    expect((await view(versionLink.general.url)).statusCode).toBe(404);
  });

  it('a revoked recipient is 404 with its URLs, while the link’s other ways in stay open', async () => {
    const { link } = await linkWithUrls({ recipients: ['ana@label.test', 'ben@label.test'] });
    const [ana, ben] = link.recipients;
    const urls = urlsOf(await viewOk(ana!.url));
    await ctx.database.db
      .update(shareLinkRecipients)
      .set({ revokedAt: ctx.clock.now() })
      .where(eq(shareLinkRecipients.id, ana!.id));
    expect((await view(ana!.url)).statusCode).toBe(404);
    await expectUrlsGone(urls);
    await viewOk(ben!.url);
    await viewOk(link.general.url);
  });
});

describe('review links with a password', () => {
  const unlock = (url: string, password: string, ip = '127.0.0.1') =>
    ctx.request({ method: 'POST', url: `${url}/unlock`, payload: { password }, remoteAddress: ip });

  it('answers 403 password_required everywhere until unlocked; the guest token opens its way in only', async () => {
    const { versionId, link } = await linkWithUrls({
      password: 'open sesame',
      recipients: ['ana@label.test'],
    });
    const base = link.general.url;
    const denied = [
      await view(base),
      await ctx.request({ method: 'GET', url: `${base}/comments` }),
      await ctx.request({
        method: 'POST',
        url: `${base}/plays`,
        payload: { versionId, playId: randomUUID(), secondsListened: 1 },
      }),
      await ctx.request({
        method: 'POST',
        url: `${base}/comments`,
        payload: { name: 'Ana', body: 'Hi', timestampSeconds: 0 },
      }),
      await view(base, 'not-a-token'),
    ];
    for (const res of denied) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('password_required');
    }
    const wrong = await unlock(base, 'open says me');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('invalid_password');
    const right = await unlock(base, 'open sesame');
    expect(right.statusCode, right.body).toBe(200);
    const { guestToken, expiresAt } = right.json();
    expect(new Date(expiresAt).getTime()).toBe(
      Math.floor(ctx.clock.now().getTime() / 1000) * 1000 + GUEST_TOKEN_SECONDS * 1000,
    );
    expect((await viewOk(base, guestToken)).items).toHaveLength(1);
    expect((await view(link.recipients[0]!.url, guestToken)).statusCode).toBe(403);
    ctx.clock.advance(GUEST_TOKEN_SECONDS * 1000);
    expect((await view(base, guestToken)).statusCode).toBe(403);
  });

  it('a password change ends the guest tokens and the URLs given before it', async () => {
    const { link } = await linkWithUrls({ password: 'first password' });
    const { guestToken } = (await unlock(link.general.url, 'first password')).json();
    const urls = urlsOf(await viewOk(link.general.url, guestToken));
    const passwordHash = await new Passwords(ctx.config.auth.passwordHashing).hash('second password');
    await setLink(link.id, { passwordHash, passwordVersion: sql`password_version + 1` as unknown as number });
    expect((await view(link.general.url, guestToken)).statusCode).toBe(403);
    await expectUrlsGone(urls);
    expect((await unlock(link.general.url, 'first password')).statusCode).toBe(403);
    const again = (await unlock(link.general.url, 'second password')).json();
    await viewOk(link.general.url, again.guestToken);
  });

  it('limits unlock attempts per link and client (429 with Retry-After), other clients still try', async () => {
    const { link } = await linkWithUrls({ password: 'right one' });
    for (let i = 0; i < UNLOCK_LIMITS.perClient.points; i++)
      expect((await unlock(link.general.url, `wrong ${i}`, '10.0.0.7')).statusCode).toBe(403);
    const limited = await unlock(link.general.url, 'right one', '10.0.0.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await unlock(link.general.url, 'right one', '10.0.0.8')).statusCode).toBe(200);
  });

  it('a link without a password ignores the Guest-Token header', async () => {
    const { link } = await linkWithUrls();
    await viewOk(link.general.url, 'anything at all');
    expect((await unlock(link.general.url, 'whatever')).statusCode).toBe(200);
  });
});
