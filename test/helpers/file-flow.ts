import { describe, expect, it } from 'vitest';
import { encodeWav, sine } from '../../src/media/test-audio.ts';
import type { TestContext, TestTeam } from './context.ts';
import type { StorageTestContext } from './storage.ts';

/** A signed URL with one character of its signature changed. */
export function tamper(url: string): string {
  const parsed = new URL(url);
  const name = parsed.searchParams.has('token') ? 'token' : 'X-Amz-Signature';
  const value = parsed.searchParams.get(name)!;
  const last = value.at(-1) === 'A' ? 'B' : 'A';
  parsed.searchParams.set(name, value.slice(0, -1) + last);
  return parsed.toString();
}

export function testWav(seconds = 0.5, channels = 2): Buffer {
  return encodeWav(sine({ sampleRate: 44_100, seconds, amplitude: 0.5, channels }), 44_100, 'pcm16');
}

type Ticket = {
  id: number;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  fileKey: string;
  expiresAt: string;
};

/** Asks for a media upload URL, as a client would. */
export async function startMedia(
  ctx: StorageTestContext,
  team: TestTeam,
  file: { fileName: string; fileSize: number; mediaType: string },
) {
  return ctx.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/media`,
    token: team.owner.token,
    payload: file,
  });
}

/** PUTs bytes to an upload URL with exactly the headers it came with. */
export function putBytes(
  ctx: StorageTestContext,
  ticket: Pick<Ticket, 'uploadUrl' | 'headers'>,
  body: Uint8Array,
) {
  return ctx.fetchUrl(ticket.uploadUrl, { method: 'PUT', headers: ticket.headers, body });
}

export function confirmMedia(ctx: StorageTestContext, team: TestTeam, mediaId: number) {
  return ctx.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/media/${mediaId}/added`,
    token: team.owner.token,
  });
}

/** Uploads a whole media file (URL, PUT, confirm) and answers the registered media. */
export async function uploadMedia(
  ctx: StorageTestContext,
  team: TestTeam,
  body: Buffer,
  fileName = 'take.wav',
  mediaType = 'audio/wav',
) {
  const created = await startMedia(ctx, team, { fileName, fileSize: body.length, mediaType });
  expect(created.statusCode, created.body).toBe(201);
  const ticket = created.json() as Ticket;
  const put = await putBytes(ctx, ticket, body);
  expect(put.status, put.body.toString()).toBe(200);
  const added = await confirmMedia(ctx, team, ticket.id);
  expect(added.statusCode, added.body).toBe(200);
  return added.json();
}

/** Every blob of the store belongs to a file or an open upload, and every file's blob exists. */
export async function expectNoOrphans(ctx: StorageTestContext) {
  const keys = new Set(await ctx.listKeys());
  const db = ctx.app.deps.database.db;
  const { files, pendingUploads } = await import('../../src/db/schema/index.ts');
  const fileKeys = (await db.select({ key: files.key }).from(files)).map((r) => r.key);
  const pending = await db
    .select({ key: pendingUploads.key, finalKey: pendingUploads.finalKey })
    .from(pendingUploads);
  for (const key of fileKeys) expect(keys.has(key), `the blob of file ${key}`).toBe(true);
  const owned = new Set([...fileKeys, ...pending.flatMap((p) => [p.key, p.finalKey])]);
  expect([...keys].filter((key) => !owned.has(key))).toEqual([]);
}

/**
 * The whole upload and download flow as a client that knows only the API would run it, against the
 * context's store: ask for a URL, PUT (a tampered or expired URL gets 403), register, download whole and in
 * ranges, refuse what is too large or over the quota, delete, and leave nothing behind.
 */
export function describeFileFlow(ctx: StorageTestContext, driver: 'local' | 's3') {
  describe(`the upload and download flow (${driver} store)`, () => {
    it('uploads, registers, serves whole and ranged downloads, and deletes without leftovers', async () => {
      const team = await ctx.newTeam();
      const wav = testWav(0.5);
      const created = await startMedia(ctx, team, {
        fileName: 'Take 1 «final».wav',
        fileSize: wav.length,
        mediaType: 'audio/wav',
      });
      expect(created.statusCode, created.body).toBe(201);
      const ticket = created.json() as Ticket;
      expect(ticket).toMatchObject({ method: 'PUT', status: 'pending', fileSize: wav.length, kind: 'audio' });
      expect(ticket.headers['content-type']).toBe('audio/wav');
      expect(ticket.fileKey).toMatch(/^pending\//);

      const forged = await putBytes(ctx, { ...ticket, uploadUrl: tamper(ticket.uploadUrl) }, wav);
      expect(forged.status).toBe(403);
      const early = await confirmMedia(ctx, team, ticket.id);
      expect(early.statusCode).toBe(409);
      expect(early.json().code).toBe('upload_missing');

      const put = await putBytes(ctx, ticket, wav);
      expect(put.status, put.body.toString()).toBe(200);
      const added = await confirmMedia(ctx, team, ticket.id);
      expect(added.statusCode, added.body).toBe(200);
      const media = added.json();
      expect(media).toMatchObject({
        id: ticket.id,
        status: 'ready',
        fileName: 'Take 1 «final».wav',
        fileSize: wav.length,
        mediaType: 'audio/wav',
        audio: { sampleRate: 44_100, channels: 2, codec: 'PCM', container: 'WAVE' },
        peaks: { status: 'pending' },
      });
      expect(media.audio.durationSeconds).toBeCloseTo(0.5, 2);
      // Registering again answers the same media; the pending key is gone from the store.
      expect((await confirmMedia(ctx, team, ticket.id)).json().id).toBe(ticket.id);
      expect(await ctx.listKeys('pending/')).toEqual([]);

      const whole = await ctx.fetchUrl(media.url);
      expect(whole.status, `${media.url} ${whole.body.toString()}`).toBe(200);
      expect(whole.body.equals(wav)).toBe(true);
      expect(whole.headers.get('content-type')).toMatch(/^audio\/wav/);
      expect(Number(whole.headers.get('content-length'))).toBe(wav.length);
      expect(whole.headers.get('etag')).toMatch(/^"/);
      expect(whole.headers.get('content-disposition')).toMatch(/^inline/);

      const saved = await ctx.fetchUrl(media.downloadUrl);
      expect(saved.status).toBe(200);
      expect(saved.headers.get('content-disposition')).toContain('attachment');
      expect(saved.headers.get('content-disposition')).toContain(
        "filename*=UTF-8''Take%201%20%C2%ABfinal%C2%BB.wav",
      );

      const part = await ctx.fetchUrl(media.url, { headers: { range: 'bytes=100-1099' } });
      expect(part.status).toBe(206);
      expect(part.body.equals(wav.subarray(100, 1100))).toBe(true);
      expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${wav.length}`);
      expect(part.headers.get('content-length')).toBe('1000');
      const tail = await ctx.fetchUrl(media.url, { headers: { range: `bytes=${wav.length - 16}-` } });
      expect(tail.status).toBe(206);
      expect(tail.body.equals(wav.subarray(wav.length - 16))).toBe(true);

      expect((await ctx.fetchUrl(tamper(media.url))).status).toBe(403);

      const removed = await ctx.request({
        method: 'DELETE',
        url: `/api/v1/teams/${team.id}/media/${ticket.id}`,
        token: team.owner.token,
      });
      expect(removed.statusCode).toBe(204);
      expect(await ctx.listKeys(`teams/${team.id}/`)).toEqual([]);
      expect((await ctx.fetchUrl(media.url)).status).toBe(404);
      await expectNoOrphans(ctx);
    });

    it('refuses an upload URL once it has expired (403)', async () => {
      const wav = testWav(0.1);
      // Issued two hours ago with the default 15-minute lifetime (the sign-in too, so its token is valid then).
      ctx.clock.advance(-2 * 3600_000);
      let created: Awaited<ReturnType<typeof startMedia>>;
      try {
        const team = await ctx.newTeam();
        created = await startMedia(ctx, team, {
          fileName: 'old.wav',
          fileSize: wav.length,
          mediaType: 'audio/wav',
        });
      } finally {
        ctx.clock.advance(2 * 3600_000);
      }
      expect(created.statusCode).toBe(201);
      const put = await putBytes(ctx, created.json(), wav);
      expect(put.status).toBe(403);
      if (driver === 'local') expect(JSON.parse(put.body.toString()).code).toBe('url_expired');
    });

    it('refuses a file over the limit of its kind (413) and leaves nothing stored', async () => {
      const team = await ctx.newTeam();
      const tooBig = await startMedia(ctx, team, {
        fileName: 'huge.png',
        fileSize: 70_000,
        mediaType: 'image/png',
      });
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json().code).toBe('payload_too_large');
      // The banner URL names no size: the limit holds at the PUT (local) or at registration (S3).
      const url = await ctx.request({
        method: 'POST',
        url: `/api/v1/teams/${team.id}/banner/upload-url`,
        token: team.owner.token,
        payload: { fileName: 'banner.png' },
      });
      expect(url.statusCode, url.body).toBe(200);
      const ticket = url.json();
      const put = await putBytes(ctx, ticket, Buffer.alloc(70_000, 1));
      if (driver === 'local') {
        expect(put.status).toBe(413);
        expect(JSON.parse(put.body.toString()).code).toBe('payload_too_large');
      } else {
        expect(put.status).toBe(200);
        const set = await ctx.request({
          method: 'PUT',
          url: `/api/v1/teams/${team.id}/banner`,
          token: team.owner.token,
          payload: { fileKey: ticket.fileKey },
        });
        expect(set.statusCode).toBe(413);
        expect(set.json().code).toBe('payload_too_large');
      }
      expect(await ctx.listKeys(ticket.fileKey)).toEqual([]);
    });

    it("refuses what does not fit in the plan's quota with quota_exceeded", async () => {
      const team = await ctx.newTeam();
      await ctx.setQuota(team, 10_000);
      const over = await startMedia(ctx, team, {
        fileName: 'a.pdf',
        fileSize: 10_001,
        mediaType: 'application/pdf',
      });
      expect(over.statusCode).toBe(413);
      expect(over.json().code).toBe('quota_exceeded');
      // Each fits alone; an open upload reserves its size, so the second URL is refused at once.
      const first = (
        await startMedia(ctx, team, { fileName: 'a.pdf', fileSize: 6_000, mediaType: 'application/pdf' })
      ).json();
      const refused = await startMedia(ctx, team, {
        fileName: 'b.pdf',
        fileSize: 6_000,
        mediaType: 'application/pdf',
      });
      expect(refused.statusCode).toBe(413);
      expect(refused.json().code).toBe('quota_exceeded');
      expect((await putBytes(ctx, first, Buffer.alloc(6_000, 1))).status).toBe(200);
      expect((await confirmMedia(ctx, team, first.id)).statusCode).toBe(200);
      // Once room is made, the same request succeeds.
      await ctx.request({
        method: 'DELETE',
        url: `/api/v1/teams/${team.id}/media/${first.id}`,
        token: team.owner.token,
      });
      const second = (
        await startMedia(ctx, team, { fileName: 'b.pdf', fileSize: 6_000, mediaType: 'application/pdf' })
      ).json();
      expect((await putBytes(ctx, second, Buffer.alloc(6_000, 2))).status).toBe(200);
      expect((await confirmMedia(ctx, team, second.id)).statusCode).toBe(200);
      await expectNoOrphans(ctx);
    });

    it('refuses a body of another size than announced', async () => {
      const team = await ctx.newTeam();
      const ticket = (
        await startMedia(ctx, team, { fileName: 'n.txt', fileSize: 100, mediaType: 'text/plain' })
      ).json();
      const put = await putBytes(ctx, ticket, Buffer.alloc(60, 65));
      if (driver === 's3') {
        // The presigned URL binds the length: S3 itself refuses the request.
        expect(put.status).toBeGreaterThanOrEqual(400);
        return;
      }
      expect(put.status).toBe(200);
      const added = await confirmMedia(ctx, team, ticket.id);
      expect(added.statusCode).toBe(400);
      expect(added.json().code).toBe('size_mismatch');
      expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
    });
  });
}

/** The team's `GET /stats/storage` answer, as its owner sees it. */
export async function storageStats(ctx: Pick<TestContext, 'request'>, team: TestTeam) {
  const res = await ctx.request({
    method: 'GET',
    url: `/api/v1/stats/storage?teamId=${team.id}`,
    token: team.owner.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** What every upload answer carries for resumable (tus) uploads. */
export const RESUMABLE_TICKET = {
  url: expect.stringMatching(/\/api\/v1\/uploads\/resumable$/),
  token: expect.any(String),
};
