import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import { TEST_SECRETS, useTestContext } from '../../../test/helpers/context.ts';
import { linkIn, useMailbox } from '../../../test/helpers/mailbox.ts';
import { shareLinkRecipients, shareLinks } from '../../db/schema/index.ts';
import { ShareLinkTokens } from './link-tokens.ts';
import { RECIPIENT_MAILS_PER_TEAM } from './recipient-mail.ts';
import { shareLinkHelpers } from './share-links.test-support.ts';

const mailbox = useMailbox();
const ctx = useTestContext({
  env: () => ({ SMTP_URL: mailbox.url, PUBLIC_URL: 'https://music.example.test' }),
});
const { call, newLink, newStem } = shareLinkHelpers(ctx);
const { albumWithTracks } = albumHelpers(ctx);
const tokens = new ShareLinkTokens(TEST_SECRETS.urlSigningSecret);

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function row(id: number) {
  const [link] = await ctx.database.db.select().from(shareLinks).where(eq(shareLinks.id, id));
  return link!;
}

describe('review links', () => {
  it('creates a track link with recipients, each mailed their own URL; the password is only a hash', async () => {
    const owner = await ctx.newUser({ name: 'Robin Producer' });
    const team = await ctx.newTeam(owner, `Night Shift ${ctx.unique()}`);
    const track = await ctx.newTrack(team, { title: 'Night Drive' });
    const expiresAt = inAnHour();
    const [anna, ben] = [`anna-${ctx.unique()}@label.example`, `ben-${ctx.unique()}@label.example`];
    const created = await call(
      'POST',
      '/api/v1/share-links',
      owner.token,
      {
        teamId: team.id,
        target: { trackId: track.id },
        title: 'Mix 3',
        message: 'Good speakers, please.',
        expiresAt,
        password: 'open sesame',
        allowDownload: 'preview',
        allowComments: true,
        recipients: [anna, ben.toUpperCase()],
      },
      201,
    );
    const link = created.body;
    expect(link).toMatchObject({
      teamId: team.id,
      target: { type: 'track', trackId: track.id, versionId: null, albumId: null, trackIds: [] },
      title: 'Mix 3',
      message: 'Good speakers, please.',
      expiresAt: new Date(expiresAt).toISOString(),
      hasPassword: true,
      allowDownload: 'preview',
      allowStems: [],
      allowComments: true,
      status: 'active',
      revokedAt: null,
      createdBy: owner.id,
      stats: { opens: 0, plays: 0, secondsListened: 0, downloads: 0, comments: 0, firstSeenAt: null },
    });
    expect(JSON.stringify(link)).not.toContain('open sesame');
    expect(link.url).toBe(`https://music.example.test/api/v1/shared/${link.token}`);
    expect(link.recipients.map((r: { email: string }) => r.email)).toEqual([anna, ben]);
    const ways = await ctx.database.db
      .select()
      .from(shareLinkRecipients)
      .where(eq(shareLinkRecipients.linkId, link.id));
    expect(ways).toHaveLength(3);
    // The token names a stored way in and carries a MAC under the service's secret.
    expect(ways.find((w) => w.email === null)!.publicId).toBe(tokens.publicIdOf(link.token));
    const stored = await row(link.id);
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);

    await ctx.app.services.jobs.runDue();
    for (const recipient of link.recipients) {
      expect(recipient.url).toBe(`https://music.example.test/api/v1/shared/${recipient.token}`);
      expect(recipient.token).not.toBe(link.token);
      const mail = mailbox.last(recipient.email, /shared/);
      expect(mail.subject).toBe('Robin Producer shared the track "Night Drive" with you');
      expect(mail.text).toContain(team.name);
      expect(mail.text).toContain('Good speakers, please.');
      expect(mail.text).toContain('password');
      expect(linkIn(mail, '/api/v1/shared/').url.href).toBe(recipient.url);
    }

    const got = await call('GET', `/api/v1/share-links/${link.id}`, owner.token, undefined, 200);
    expect(got.body).toEqual(link);
  });

  it('takes a version, an album or a playlist as target', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const version = await ctx.newVersion(track);
    const byVersion = await newLink(team, { target: { versionId: version.id } });
    expect(byVersion.target).toEqual({
      type: 'version',
      trackId: track.id,
      versionId: version.id,
      albumId: null,
      trackIds: [],
    });
    const { album } = await albumWithTracks(team, 2);
    expect((await newLink(team, { target: { albumId: album.id } })).target).toMatchObject({
      type: 'album',
      albumId: album.id,
    });
    const other = await ctx.newTrack(team);
    const playlist = await newLink(team, { target: { trackIds: [other.id, track.id] } });
    expect(playlist.target).toMatchObject({
      type: 'playlist',
      trackIds: [other.id, track.id],
      trackId: null,
    });
    expect(playlist).toMatchObject({ allowDownload: 'none', allowComments: false, hasPassword: false });
  });

  it('puts only live targets of the team itself on a link (404 naming the first that is not)', async () => {
    const team = await ctx.newTeam();
    const elsewhere = await ctx.newTeam(team.owner);
    const foreign = await ctx.newTrack({ ...elsewhere, shareWith: [team.id] });
    const own = await ctx.newTrack(team);
    const deleted = await ctx.newTrack(team);
    await call('DELETE', `/api/v1/tracks/${deleted.id}`, team.owner.token, undefined, 204);
    const { album } = await albumWithTracks(elsewhere, 1);
    const refused: [object, string][] = [
      [{ trackId: foreign.id }, `Track ${foreign.id} not found`],
      [{ trackId: deleted.id }, `Track ${deleted.id} not found`],
      [{ versionId: foreign.versionId }, `Version ${foreign.versionId} not found`],
      [{ versionId: deleted.versionId }, `Version ${deleted.versionId} not found`],
      [{ albumId: album.id }, `Album ${album.id} not found`],
      [{ trackIds: [own.id, deleted.id, foreign.id] }, `Track ${deleted.id} not found`],
    ];
    for (const [target, message] of refused) {
      const res = await call('POST', '/api/v1/share-links', team.owner.token, { teamId: team.id, target });
      expect(res.status, JSON.stringify(target)).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: message });
    }
    expect(await ctx.database.db.select().from(shareLinks).where(eq(shareLinks.teamId, team.id))).toEqual([]);
  });

  it('refuses invalid links (400)', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const otherTrack = await ctx.newTrack(team);
    const foreignStem = await newStem(otherTrack.versionId);
    const emails = Array.from({ length: 51 }, (_, i) => `r${i}@example.test`);
    const bodies: [object, string][] = [
      [{ target: {} }, '/body/target'],
      [{ target: { trackId: track.id, albumId: 1 } }, '/body/target'],
      [{ target: { trackIds: [] } }, '/body/target'],
      [{ target: { trackIds: [track.id, track.id] } }, '/body/target'],
      [{ target: { trackId: track.id }, expiresAt: '2001-01-01T00:00:00Z' }, '/body/expiresAt'],
      [{ target: { trackId: track.id }, password: 'abc' }, '/body/password'],
      [{ target: { trackId: track.id }, allowDownload: 'all' }, '/body/allowDownload'],
      [{ target: { trackId: track.id }, allowStems: [foreignStem] }, '/body/allowStems/0'],
      [{ target: { trackId: track.id }, recipients: ['not-an-address'] }, '/body/recipients/0'],
      [
        { target: { trackId: track.id }, recipients: ['a@example.test', 'A@Example.test'] },
        '/body/recipients/1',
      ],
      [{ target: { trackId: track.id }, recipients: emails }, '/body/recipients'],
      [{ target: { trackId: track.id }, extra: true }, '/body'],
    ];
    for (const [fields, path] of bodies) {
      const res = await call('POST', '/api/v1/share-links', team.owner.token, { teamId: team.id, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path).join(' ')).toContain(path);
    }
    const ownStem = await newStem(track.versionId);
    const link = await newLink(team, { target: { trackId: track.id }, allowStems: [ownStem] });
    expect(link.allowStems).toEqual([ownStem]);
    const album = await albumWithTracks(team, 1);
    const albumStem = await newStem((await ctx.newVersion({ ...track, id: album.trackIds[0]! })).id);
    expect(
      (await newLink(team, { target: { albumId: album.album.id }, allowStems: [albumStem] })).allowStems,
    ).toEqual([albumStem]);
  });

  it('lists a team’s links newest first, by status, track and album, in pages', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const { album, trackIds } = await albumWithTracks(team, 1);
    const first = await newLink(team, { target: { trackId: track.id } });
    const second = await newLink(team, { target: { albumId: album.id } });
    const third = await newLink(team, { target: { trackIds: [trackIds[0]!, track.id] } });
    const expired = await newLink(team, { target: { versionId: track.versionId } });
    const revoked = await newLink(team);
    await ctx.database.db
      .update(shareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shareLinks.id, expired.id));
    await call('POST', `/api/v1/share-links/${revoked.id}/revoke`, team.owner.token, undefined, 200);
    await newLink(await ctx.newTeam());

    const ids = async (query: string) =>
      (
        await call('GET', `/api/v1/share-links?teamId=${team.id}${query}`, team.owner.token, undefined, 200)
      ).body.items.map((l: { id: number }) => l.id);
    expect(await ids('')).toEqual([revoked.id, expired.id, third.id, second.id, first.id]);
    expect(await ids('&status=active')).toEqual([third.id, second.id, first.id]);
    expect(await ids('&status=expired')).toEqual([expired.id]);
    expect(await ids('&status=revoked')).toEqual([revoked.id]);
    expect(await ids(`&trackId=${track.id}`)).toEqual([expired.id, third.id, first.id]);
    expect(await ids(`&albumId=${album.id}`)).toEqual([second.id]);

    const page = await call('GET', `/api/v1/share-links?teamId=${team.id}&limit=2`, team.owner.token);
    expect(page.body.items.map((l: { id: number }) => l.id)).toEqual([revoked.id, expired.id]);
    const next = await call(
      'GET',
      `/api/v1/share-links?teamId=${team.id}&limit=2&cursor=${page.body.nextCursor}`,
      team.owner.token,
    );
    expect(next.body.items.map((l: { id: number }) => l.id)).toEqual([third.id, second.id]);
    const bad = await call('GET', `/api/v1/share-links?teamId=${team.id}&status=open`, team.owner.token);
    expect(bad.status).toBe(400);
    expect((await call('GET', '/api/v1/share-links', team.owner.token)).status).toBe(400);
  });

  it('shows a link as gone once what it shows is deleted', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const other = await ctx.newTrack(team);
    const byTrack = await newLink(team, { target: { trackId: track.id } });
    const byVersion = await newLink(team, { target: { versionId: track.versionId } });
    const playlist = await newLink(team, { target: { trackIds: [track.id, other.id] } });
    await call('DELETE', `/api/v1/tracks/${track.id}`, team.owner.token, undefined, 204);
    const status = async (id: number) =>
      (await call('GET', `/api/v1/share-links/${id}`, team.owner.token, undefined, 200)).body.status;
    expect(await status(byTrack.id)).toBe('gone');
    expect(await status(byVersion.id)).toBe('gone');
    expect(await status(playlist.id)).toBe('active');
    await call('DELETE', `/api/v1/tracks/${other.id}`, team.owner.token, undefined, 204);
    expect(await status(playlist.id)).toBe('gone');
  });

  it('changes what a link says and allows; a password change ends earlier guest tokens', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const stem = await newStem(track.versionId);
    const link = await newLink(team, { target: { trackId: track.id }, title: 'Old', password: 'first' });
    const before = await row(link.id);
    const url = `/api/v1/share-links/${link.id}`;
    const expiresAt = inAnHour();
    const patched = await call(
      'PATCH',
      url,
      team.owner.token,
      {
        title: null,
        message: 'New note',
        expiresAt,
        password: 'second',
        allowDownload: 'original',
        allowStems: [stem],
        allowComments: true,
      },
      200,
    );
    expect(patched.body).toMatchObject({
      title: null,
      message: 'New note',
      expiresAt: new Date(expiresAt).toISOString(),
      hasPassword: true,
      allowDownload: 'original',
      allowStems: [stem],
      allowComments: true,
      token: link.token,
    });
    const after = await row(link.id);
    expect(after.passwordVersion).toBe(before.passwordVersion + 1);
    expect(after.passwordHash).not.toBe(before.passwordHash);
    const cleared = await call('PATCH', url, team.owner.token, { password: null, expiresAt: null }, 200);
    expect(cleared.body).toMatchObject({ hasPassword: false, expiresAt: null });
    expect((await row(link.id)).passwordVersion).toBe(before.passwordVersion + 2);
    expect((await call('PATCH', url, team.owner.token, { title: 'Same password' }, 200)).body.title).toBe(
      'Same password',
    );
    expect((await row(link.id)).passwordVersion).toBe(before.passwordVersion + 2);

    for (const body of [
      {},
      { target: { trackId: track.id } },
      { allowStems: [stem + 1000] },
      { expiresAt: '2001-01-01T00:00:00Z' },
    ]) {
      const res = await call('PATCH', url, team.owner.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('revokes a link (idempotent); a revoked link cannot be changed (409 link_revoked)', async () => {
    const team = await ctx.newTeam();
    const link = await newLink(team);
    const url = `/api/v1/share-links/${link.id}`;
    const revoked = await call('POST', `${url}/revoke`, team.owner.token, undefined, 200);
    expect(revoked.body).toMatchObject({ id: link.id, status: 'revoked' });
    expect(revoked.body.revokedAt).not.toBeNull();
    const again = await call('POST', `${url}/revoke`, team.owner.token, undefined, 200);
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    const patch = await call('PATCH', url, team.owner.token, { title: 'Too late' });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('link_revoked');
    const add = await call('POST', `${url}/recipients`, team.owner.token, { email: 'late@example.test' });
    expect(add.status).toBe(409);
    expect(add.body.code).toBe('link_revoked');
  });

  it('adds recipients (mailed, the same address twice is 409) and revokes one way in', async () => {
    const team = await ctx.newTeam();
    const link = await newLink(team, { title: 'For the label' });
    const url = `/api/v1/share-links/${link.id}/recipients`;
    const email = `carla-${ctx.unique()}@label.example`;
    const added = await call('POST', url, team.owner.token, { email }, 201);
    expect(added.body).toMatchObject({ email, revokedAt: null, stats: { opens: 0 } });
    await ctx.app.services.jobs.runDue();
    expect(linkIn(mailbox.last(email, /shared the track/), '/api/v1/shared/').url.href).toBe(added.body.url);
    const twice = await call('POST', url, team.owner.token, { email: email.toUpperCase() });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('conflict');
    expect((await call('POST', url, team.owner.token, { email: 'nope' })).status).toBe(400);

    await ctx.database.db
      .update(shareLinkRecipients)
      .set({ opens: 2, plays: 1 })
      .where(eq(shareLinkRecipients.id, added.body.id));
    await call('DELETE', `${url}/${added.body.id}`, team.owner.token, undefined, 204);
    await call('DELETE', `${url}/${added.body.id}`, team.owner.token, undefined, 204);
    const got = (await call('GET', `/api/v1/share-links/${link.id}`, team.owner.token, undefined, 200)).body;
    expect(got.recipients[0]).toMatchObject({ id: added.body.id, stats: { opens: 2, plays: 1 } });
    expect(got.recipients[0].revokedAt).not.toBeNull();
    expect(got).toMatchObject({ status: 'active', stats: { opens: 2, plays: 1 } });

    const general = (
      await ctx.database.db.select().from(shareLinkRecipients).where(eq(shareLinkRecipients.linkId, link.id))
    ).find((w) => w.email === null)!;
    expect((await call('DELETE', `${url}/${general.id}`, team.owner.token)).status).toBe(404);
    const otherLink = await newLink(team, { recipients: ['someone@example.test'] });
    const foreign = otherLink.recipients[0].id;
    expect((await call('DELETE', `${url}/${foreign}`, team.owner.token)).status).toBe(404);
  });

  it('mails at most the team’s hourly budget of recipients; beyond it 429 and nothing is made', async () => {
    const team = await ctx.newTeam();
    const list = (n: number) => Array.from({ length: n }, (_, i) => `fan-${i}-${ctx.unique()}@example.test`);
    // A refused link spends nothing of the budget.
    const missing = await call('POST', '/api/v1/share-links', team.owner.token, {
      teamId: team.id,
      target: { trackId: 2_000_000_000 },
      recipients: list(50),
    });
    expect(missing.status).toBe(404);
    for (let i = 0; i < RECIPIENT_MAILS_PER_TEAM / 50; i++) await newLink(team, { recipients: list(50) });
    const before = await ctx.database.db.select({ id: shareLinks.id }).from(shareLinks);
    const track = await ctx.newTrack(team);
    const over = await ctx.request({
      method: 'POST',
      url: '/api/v1/share-links',
      token: team.owner.token,
      payload: { teamId: team.id, target: { trackId: track.id }, recipients: list(1) },
    });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect(await ctx.database.db.select({ id: shareLinks.id }).from(shareLinks)).toHaveLength(before.length);
    // A link without recipients mails nobody and is still made.
    const quiet = await newLink(team);
    const added = await call('POST', `/api/v1/share-links/${quiet.id}/recipients`, team.owner.token, {
      email: list(1)[0],
    });
    expect(added.status).toBe(429);
    // Another team has its own budget.
    await newLink(await ctx.newTeam(), { recipients: list(1) });
  });

  it('lets owners, admins and the team’s keys manage links; plain members 403, other teams 404', async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    const key = await ctx.newApiKey(team, ['tracks:write']);
    const byAdmin = await newLink(team, {}, admin.token);
    expect(byAdmin.createdBy).toBe(admin.id);
    const byKey = await newLink(team, {}, key);
    expect(byKey.createdBy).toBeNull();
    expect((await row(byKey.id)).createdByKeyId).not.toBeNull();
    const track = await ctx.newTrack(team);
    const forbidden = [
      call('POST', '/api/v1/share-links', member.token, { teamId: team.id, target: { trackId: track.id } }),
      call('GET', `/api/v1/share-links?teamId=${team.id}`, member.token),
      call('GET', `/api/v1/share-links/${byAdmin.id}`, member.token),
      call('GET', `/api/v1/share-links/${byAdmin.id}/activity`, member.token),
      call('POST', `/api/v1/share-links/${byAdmin.id}/revoke`, member.token),
    ];
    for (const res of await Promise.all(forbidden)) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    const other = await ctx.newTeam();
    const otherKey = await ctx.newApiKey(other, ['tracks:write']);
    for (const token of [other.owner.token, otherKey]) {
      const res = await call('GET', `/api/v1/share-links/${byAdmin.id}`, token);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Share link not found');
      const created = await call('POST', '/api/v1/share-links', token, {
        teamId: team.id,
        target: { trackId: track.id },
      });
      expect(created.status).toBe(404);
    }
    // A key of another team cannot put that team's own track on a link of this team, nor the reverse.
    const theirs = await ctx.newTrack(other);
    const mixed = await call('POST', '/api/v1/share-links', key, {
      teamId: team.id,
      target: { trackId: theirs.id },
    });
    expect(mixed.status).toBe(404);
    expect((await call('GET', '/api/v1/share-links/999999999', team.owner.token)).status).toBe(404);
  });
});
