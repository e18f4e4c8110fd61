import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RESUMABLE_PATH } from '../src/modules/files/resumable/resumable-tickets.ts';
import { guestHelpers } from '../src/modules/share-links/guest/guest.test-support.ts';
import { testWav } from './helpers/file-flow.ts';
import { sendInterrupted } from './helpers/resumable-upload.ts';
import { useStorageTestContext } from './helpers/storage.ts';
import { newStem, versionsBase } from './helpers/version-uploads.ts';

// A mix sent to someone without an account, over HTTP only: a stem that arrives in three pieces, a
// password-protected review link with one restricted stem, a guest who listens, comments and downloads,
// and a revocation that ends every way in at once.
const ctx = useStorageTestContext('local');
const { trackWithAudio } = guestHelpers(ctx);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type GuestStem = {
  id: number;
  name: string;
  downloadable: boolean;
  streamUrl: string | null;
  downloadUrl: string | null;
};

describe('a review link from upload to revocation', () => {
  it('shares a version with a guest: password, plays, comments, per-stem rights, downloads, revocation', async () => {
    const team = await ctx.newTeam();
    const owner = team.owner.token;
    const call = async (method: string, url: string, payload?: object, token: string | undefined = owner) =>
      ctx.request({
        method: method as 'GET',
        url,
        ...(token ? { token } : {}),
        ...(payload ? { payload } : {}),
      });
    const { track, versionId } = await trackWithAudio(team);
    const stems = `${versionsBase(track)}/${versionId}/stems`;

    // A 50 MB stem sent through tus, interrupted twice, registered with exactly its bytes.
    const drumsBytes = testWav(300);
    expect(drumsBytes.length).toBeGreaterThan(50 * 1000 * 1000);
    const ticket = await call('POST', `${stems}/upload-url`, {
      fileName: 'drums.wav',
      fileSize: drumsBytes.length,
    });
    expect(ticket.statusCode, ticket.body).toBe(200);
    const { port } = ctx.app.server.address() as AddressInfo;
    const endpoint = `http://127.0.0.1:${port}${RESUMABLE_PATH}`;
    expect(await sendInterrupted(endpoint, ticket.json().resumable, drumsBytes, [0.35, 0.7])).toBe(2);
    const created = await call('POST', stems, { name: 'Drums', stemKey: ticket.json().stemKey });
    expect(created.statusCode, created.body).toBe(201);
    const drums = created.json();
    const teamCopy = await ctx.fetchUrl(drums.file.downloadUrl);
    expect(sha256(teamCopy.body)).toBe(sha256(drumsBytes));

    // A second stem only the owners and admins may download.
    const vocals = await newStem(ctx, team, track, versionId, 'Vocals');
    const rights = await call('PUT', `${stems}/${vocals.id}/rights`, {
      restricted: true,
      downloadableBy: ['admin'],
    });
    expect(rights.statusCode, rights.body).toBe(200);

    // The link: this version, a password, both stems, original downloads, comments.
    const made = await call('POST', '/api/v1/share-links', {
      teamId: team.id,
      target: { versionId },
      title: 'Night Drive — mix 3',
      password: 'listen-2031',
      allowDownload: 'original',
      allowStems: [drums.id, vocals.id],
      allowComments: true,
    });
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json();
    expect(link).toMatchObject({ status: 'active', hasPassword: true });
    const guestUrl = new URL(link.url).pathname;

    // A guest needs the password first.
    expect((await call('GET', guestUrl, undefined, undefined)).json().code).toBe('password_required');
    const wrong = await call('POST', `${guestUrl}/unlock`, { password: 'guess' }, undefined);
    expect([wrong.statusCode, wrong.json().code]).toEqual([403, 'invalid_password']);
    const unlocked = await call('POST', `${guestUrl}/unlock`, { password: 'listen-2031' }, undefined);
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    const guest = { 'guest-token': unlocked.json().guestToken };
    const asGuest = (method: 'GET' | 'POST', url: string, payload?: object) =>
      ctx.request({ method, url, headers: guest, ...(payload ? { payload } : {}) });

    const opened = await asGuest('GET', guestUrl);
    expect(opened.statusCode, opened.body).toBe(200);
    const [item] = opened.json().items;
    expect(item.version.id).toBe(versionId);
    const shown = new Map<string, GuestStem>(item.stems.map((s: GuestStem) => [s.name, s]));
    expect(shown.get('Drums')).toMatchObject({ downloadable: true, downloadUrl: expect.any(String) });
    // The restricted stem is listed, but nothing of its audio is handed out.
    expect(shown.get('Vocals')).toMatchObject({ downloadable: false, streamUrl: null, downloadUrl: null });

    // Listening: the stream plays and the player reports what was heard.
    expect((await ctx.fetchUrl(item.version.streamUrl)).status).toBe(200);
    const played = await asGuest('POST', `${guestUrl}/plays`, {
      versionId,
      playId: randomUUID(),
      secondsListened: item.version.durationSeconds / 2,
    });
    expect(played.statusCode, played.body).toBe(204);

    // A timed comment lands in the team's comments, marked as a guest's.
    const note = await asGuest('POST', `${guestUrl}/comments`, {
      name: 'Ana (A&R)',
      body: 'The chorus lifts here, keep it',
      timestampSeconds: 0.25,
    });
    expect(note.statusCode, note.body).toBe(201);
    const teamComments = await call('GET', `${versionsBase(track)}/${versionId}/comments`);
    expect(teamComments.json().items).toContainEqual(
      expect.objectContaining({
        comment: 'The chorus lifts here, keep it',
        atSeconds: 0.25,
        authorId: null,
        guest: { name: 'Ana (A&R)', shareLinkId: link.id },
      }),
    );

    // The allowed stem downloads with its bytes; the count rises.
    const saved = await ctx.fetchUrl(shown.get('Drums')!.downloadUrl!);
    expect(saved.status).toBe(200);
    expect(sha256(saved.body)).toBe(sha256(drumsBytes));

    const stats = (await call('GET', `/api/v1/share-links/${link.id}`)).json().stats;
    expect(stats).toMatchObject({ opens: 1, plays: 1, downloads: 1, comments: 1 });
    expect(stats.secondsListened).toBeCloseTo(item.version.durationSeconds / 2, 6);
    const activity = (await call('GET', `/api/v1/share-links/${link.id}/activity`)).json();
    expect(new Set(activity.items.map((a: { kind: string }) => a.kind))).toEqual(
      new Set(['open', 'play', 'comment', 'download']),
    );

    // Restricting the stem later ends the URL the guest already holds.
    const restricted = await call('PUT', `${stems}/${drums.id}/rights`, {
      restricted: true,
      downloadableBy: [],
    });
    expect(restricted.statusCode).toBe(200);
    expect((await ctx.fetchUrl(shown.get('Drums')!.downloadUrl!)).status).toBe(404);

    // Revoked: every way in and every URL handed out answers 404 at once.
    expect((await call('POST', `/api/v1/share-links/${link.id}/revoke`)).json().status).toBe('revoked');
    expect((await asGuest('GET', guestUrl)).statusCode).toBe(404);
    expect((await ctx.fetchUrl(item.version.streamUrl)).status).toBe(404);
    expect((await ctx.fetchUrl(item.version.downloadUrl)).status).toBe(404);
    const late = await asGuest('POST', `${guestUrl}/comments`, {
      name: 'Ana',
      body: 'One more',
      timestampSeconds: 0,
    });
    expect(late.statusCode).toBe(404);
    expect(
      (await call('POST', `${guestUrl}/unlock`, { password: 'listen-2031' }, undefined)).statusCode,
    ).toBe(404);
  }, 90_000);
});
