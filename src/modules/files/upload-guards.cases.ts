import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes } from '../../../test/helpers/file-flow.ts';
import type { StorageTestContext } from '../../../test/helpers/storage.ts';
import { tinyPng } from '../../../test/helpers/track-files.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bytes that are no image at all, far larger than the image they try to replace. */
const NOT_AN_IMAGE = Buffer.alloc(512 * 1024, 0x41);

type CoverTicket = { id: number; uploadUrl: string; headers: Record<string, string>; fileKey: string };

const coversUrl = (trackId: number, rest = '') => `/api/v1/tracks/${trackId}/covers${rest}`;

/** A cover upload URL of a new track that names no size: it accepts up to the image limit. */
async function openCover(ctx: StorageTestContext, team: TestTeam) {
  const track = await ctx.newTrack(team);
  const res = await ctx.request({
    method: 'POST',
    url: coversUrl(track.id),
    token: team.owner.token,
    payload: { fileName: 'front.png' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { track, ticket: res.json() as CoverTicket };
}

function register(ctx: StorageTestContext, team: TestTeam, trackId: number, coverId: number) {
  return ctx.request({
    method: 'POST',
    url: coversUrl(trackId, `/${coverId}/added`),
    token: team.owner.token,
  });
}

/** The registered file, checked against the stored object: same size, same bytes as `expected`. */
async function expectStoredAsRecorded(ctx: StorageTestContext, teamId: number, fileId: number) {
  const file = await ctx.app.services.files.get(teamId, fileId);
  expect(file).toBeDefined();
  const info = await ctx.store.head(file!.key);
  expect(info?.size).toBe(file!.size);
  const content = await ctx.store.get(file!.key);
  const chunks: Buffer[] = [];
  for await (const chunk of content!.stream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  expect(bytes.length).toBe(file!.size);
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  return bytes;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A PUT to a local upload URL whose body is sent in two parts: `finish` sends the rest and answers the
 * status. It resolves once the server is receiving the body (the pending write is on disk).
 */
async function startSlowPut(ctx: StorageTestContext, ticket: CoverTicket, first: Buffer, rest: Buffer) {
  const { port } = ctx.app.server.address() as AddressInfo;
  const url = new URL(ticket.uploadUrl);
  const temp = join(ctx.config.dataDir, 'blobs', '.tmp');
  const before = new Set(await readdir(temp));
  let answer!: Promise<{ status: number; body: string }>;
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'PUT',
    path: `${url.pathname}${url.search}`,
    headers: { 'content-type': ticket.headers['content-type']! },
  });
  answer = new Promise((resolve, reject) => {
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
  });
  req.write(first);
  for (let i = 0; i < 200; i++) {
    if ((await readdir(temp)).some((name) => !before.has(name))) break;
    await delay(10);
  }
  return {
    finish: () => {
      req.end(rest);
      return answer;
    },
  };
}

/**
 * Registration closes the upload before it inspects the bytes, and inspects them at their final key: what is
 * recorded is what is stored, whatever PUTs race it.
 */
export function describeUploadGuards(ctx: StorageTestContext, driver: 'local' | 's3') {
  describe(`registration against racing PUTs (${driver} store)`, () => {
    it('records exactly the stored bytes when PUTs of other bytes race the registration', async () => {
      const team = await ctx.newTeam();
      const png = tinyPng(40);
      for (let round = 0; round < 12; round++) {
        const { track, ticket } = await openCover(ctx, team);
        // The S3 test server may have reset a kept-alive connection an earlier round's overlapping PUTs
        // used; a second try goes out on a fresh one.
        const stored = await putBytes(ctx, ticket, png).catch((error: unknown) => {
          if (driver !== 's3') throw error;
          return putBytes(ctx, ticket, png);
        });
        expect(stored.status).toBe(200);
        const [added, ...puts] = await Promise.all([
          register(ctx, team, track.id, ticket.id),
          ...[0, 1, 2, 4].map(async (ms) => {
            await delay(ms);
            const put = putBytes(ctx, ticket, NOT_AN_IMAGE);
            // The S3 test server may drop a connection whose PUT overlaps another of the same key.
            return driver === 's3' ? put.catch(() => ({ status: 0 })) : put;
          }),
        ]);
        // With S3 the bucket answers the PUTs (the test server may even fail overlapping ones of one key).
        if (driver === 'local') for (const put of puts) expect([200, 409]).toContain(put.status);
        if (added!.statusCode === 200) {
          const bytes = await expectStoredAsRecorded(ctx, team.id, ticket.id);
          expect(bytes.equals(png)).toBe(true);
        } else {
          // A swapped body that landed before the upload closed is inspected, and refused.
          expect(added!.statusCode, added!.body).toBe(400);
          expect(added!.json().code).toBe('unsupported_file_type');
          expect(await ctx.app.services.files.get(team.id, ticket.id)).toBeUndefined();
        }
      }
    });

    it('refuses an image whose bytes were swapped for non-image bytes, and ends that upload', async () => {
      const team = await ctx.newTeam();
      const { track, ticket } = await openCover(ctx, team);
      expect((await putBytes(ctx, ticket, tinyPng())).status).toBe(200);
      expect((await putBytes(ctx, ticket, NOT_AN_IMAGE)).status).toBe(200);
      const added = await register(ctx, team, track.id, ticket.id);
      expect(added.statusCode).toBe(400);
      expect(added.json().code).toBe('unsupported_file_type');
      expect(await ctx.listKeys(`teams/${team.id}/`)).toEqual([]);
      expect((await register(ctx, team, track.id, ticket.id)).statusCode).toBe(404);
      await expectNoOrphans(ctx);
    });

    it('keeps the registered bytes when the upload URL is used again afterwards', async () => {
      const team = await ctx.newTeam();
      const { track, ticket } = await openCover(ctx, team);
      const png = tinyPng(90);
      expect((await putBytes(ctx, ticket, png)).status).toBe(200);
      expect((await register(ctx, team, track.id, ticket.id)).statusCode).toBe(200);
      const late = await putBytes(ctx, ticket, NOT_AN_IMAGE);
      if (driver === 'local') {
        expect(late.status).toBe(409);
        expect(JSON.parse(late.body.toString()).code).toBe('upload_closed');
      }
      expect((await register(ctx, team, track.id, ticket.id)).statusCode).toBe(200);
      expect((await expectStoredAsRecorded(ctx, team.id, ticket.id)).equals(png)).toBe(true);
    });

    it('never registers two uploads that together pass the quota, and keeps no bytes of the refused one', async () => {
      const team = await ctx.newTeam();
      const image = Buffer.concat([tinyPng(), Buffer.alloc(6_000, 1)]);
      await ctx.setQuota(team, 10_000);
      const [a, b] = [await openCover(ctx, team), await openCover(ctx, team)];
      // The local store counts bytes as they arrive (one of these PUTs stops at the quota); S3 takes both.
      const puts = await Promise.all([putBytes(ctx, a.ticket, image), putBytes(ctx, b.ticket, image)]);
      expect(puts.filter((p) => p.status === 200).length).toBe(driver === 'local' ? 1 : 2);
      const added = await Promise.all([
        register(ctx, team, a.track.id, a.ticket.id),
        register(ctx, team, b.track.id, b.ticket.id),
      ]);
      expect(added.filter((r) => r.statusCode === 200)).toHaveLength(1);
      const loser = added.find((r) => r.statusCode !== 200)!;
      if (driver === 's3') {
        expect(loser.statusCode, loser.body).toBe(413);
        expect(loser.json().code).toBe('quota_exceeded');
      }
      const stats = await ctx.request({
        method: 'GET',
        url: `/api/v1/stats/storage?teamId=${team.id}`,
        token: team.owner.token,
      });
      expect(stats.json()).toMatchObject({ usedBytes: image.length, fileCount: 1 });
      expect(await ctx.listKeys(`teams/${team.id}/`)).toHaveLength(1);
      expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
    });

    if (driver === 'local') {
      it('refuses (409) a PUT still in flight when registration closed the upload, and keeps nothing of it', async () => {
        const team = await ctx.newTeam();
        const { track, ticket } = await openCover(ctx, team);
        const png = tinyPng(200);
        expect((await putBytes(ctx, ticket, png)).status).toBe(200);
        const slow = await startSlowPut(
          ctx,
          ticket,
          NOT_AN_IMAGE.subarray(0, 1024),
          NOT_AN_IMAGE.subarray(1024),
        );
        const added = await register(ctx, team, track.id, ticket.id);
        expect(added.statusCode, added.body).toBe(200);
        const late = await slow.finish();
        expect(late.status, late.body).toBe(409);
        expect(JSON.parse(late.body).code).toBe('upload_closed');
        expect((await expectStoredAsRecorded(ctx, team.id, ticket.id)).equals(png)).toBe(true);
        expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
        await expectNoOrphans(ctx);
      });
    }
  });
}
