import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { queryRows } from '../../../test/helpers/database.ts';
import {
  confirmMedia,
  expectNoOrphans,
  putBytes,
  startMedia,
  storageStats,
} from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { tinyPng } from '../../../test/helpers/track-files.ts';
import { lockStorage } from './files.repository.ts';

const MAX_OPEN = 3;
const IMAGE_MAX = 65_536;
const ctx = useStorageTestContext('local', {
  env: {
    MAX_OPEN_UPLOADS_PER_TEAM: String(MAX_OPEN),
    MAX_IMAGE_BYTES: String(IMAGE_MAX),
    // Short-lived uploads, so one can expire within a session token's lifetime.
    UPLOAD_URL_TTL_SECONDS: '60',
    PENDING_UPLOAD_TTL_SECONDS: '120',
  },
});

const pdf = (fileName: string, fileSize: number) => ({ fileName, fileSize, mediaType: 'application/pdf' });

const stats = (team: TestTeam) => storageStats(ctx, team);

function discardMedia(team: TestTeam, id: number) {
  return ctx.request({
    method: 'DELETE',
    url: `/api/v1/teams/${team.id}/media/${id}`,
    token: team.owner.token,
  });
}

function bannerUrl(team: TestTeam) {
  return ctx.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/banner/upload-url`,
    token: team.owner.token,
    payload: { fileName: 'banner.png' },
  });
}

function setBanner(team: TestTeam, fileKey: string) {
  return ctx.request({
    method: 'PUT',
    url: `/api/v1/teams/${team.id}/banner`,
    token: team.owner.token,
    payload: { fileKey },
  });
}

/** A PUT whose body goes out in `parts` with no Content-Length (chunked), as a streaming client sends it. */
function putChunked(ticket: { uploadUrl: string; headers: Record<string, string> }, parts: Buffer[]) {
  const { port } = ctx.app.server.address() as AddressInfo;
  const url = new URL(ticket.uploadUrl);
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: `${url.pathname}${url.search}`,
        headers: { 'content-type': ticket.headers['content-type']!, 'transfer-encoding': 'chunked' },
      },
      (res) => {
        const body: Buffer[] = [];
        res.on('data', (chunk: Buffer) => body.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(body) }));
      },
    );
    req.on('error', reject);
    for (const part of parts) req.write(part);
    req.end();
  });
}

const rows = (query: SQL) => queryRows(ctx.app.deps.database.db, query);

/** Files the team has, their byte sum, and the storage counter the quota is checked against. */
async function storageOf(teamId: number) {
  const [row] = await rows(sql`
    select (select count(*) from files where team_id = ${teamId})::int as count,
           coalesce((select sum(size) from files where team_id = ${teamId}), 0)::bigint as sum,
           coalesce((select used_bytes from team_storage where team_id = ${teamId}), 0)::bigint as counter`);
  return { count: Number(row!.count), sum: Number(row!.sum), counter: Number(row!.counter) };
}

describe('open uploads reserve quota', () => {
  it('refuses an upload URL once the reserved bytes would pass the quota, and frees them on register and discard', async () => {
    const team = await ctx.newTeam();
    await ctx.setQuota(team, 10_000);
    const first = await startMedia(ctx, team, pdf('a.pdf', 6_000));
    expect(first.statusCode, first.body).toBe(201);
    expect(await stats(team)).toMatchObject({ usedBytes: 0, reservedBytes: 6_000, pendingUploads: 1 });

    const over = await startMedia(ctx, team, pdf('b.pdf', 4_001));
    expect(over.statusCode).toBe(413);
    expect(over.json().code).toBe('quota_exceeded');
    expect(over.json().error).toContain('reserved by open uploads');
    const second = await startMedia(ctx, team, pdf('b.pdf', 4_000));
    expect(second.statusCode).toBe(201);

    // Registration turns the reservation into used bytes.
    const ticket = first.json();
    expect((await putBytes(ctx, ticket, Buffer.alloc(6_000, 1))).status).toBe(200);
    expect((await confirmMedia(ctx, team, ticket.id)).statusCode).toBe(200);
    expect(await stats(team)).toMatchObject({ usedBytes: 6_000, reservedBytes: 4_000, pendingUploads: 1 });
    expect((await startMedia(ctx, team, pdf('c.pdf', 1))).statusCode).toBe(413);

    // Discarding an open upload frees what it reserved.
    expect((await discardMedia(team, second.json().id)).statusCode).toBe(204);
    expect(await stats(team)).toMatchObject({ usedBytes: 6_000, reservedBytes: 0, pendingUploads: 0 });
    expect((await startMedia(ctx, team, pdf('d.pdf', 4_000))).statusCode).toBe(201);
    await expectNoOrphans(ctx);
  });

  it('holds nothing for a URL that names no size until bytes arrive, then what was stored', async () => {
    const team = await ctx.newTeam();
    await ctx.setQuota(team, 1_000);
    const tickets = [];
    for (let i = 0; i < MAX_OPEN + 2; i++) {
      const banner = await bannerUrl(team);
      expect(banner.statusCode, banner.body).toBe(200);
      tickets.push(banner.json());
    }
    expect(await stats(team)).toMatchObject({ reservedBytes: 0, pendingUploads: MAX_OPEN + 2 });
    const png = Buffer.concat([tinyPng(), Buffer.alloc(500, 1)]);
    expect((await putBytes(ctx, tickets[0], png)).status).toBe(200);
    expect(await stats(team)).toMatchObject({ usedBytes: 0, reservedBytes: png.length });
    // A declared reservation must fit beside the bytes already received.
    expect((await startMedia(ctx, team, pdf('over.pdf', 1_000 - png.length + 1))).statusCode).toBe(413);
    expect((await startMedia(ctx, team, pdf('fits.pdf', 1_000 - png.length))).statusCode).toBe(201);
  });

  it('stops a PUT that crosses the remaining quota with 413 quota_exceeded, storing nothing', async () => {
    const team = await ctx.newTeam();
    await ctx.setQuota(team, 5_000);
    expect((await startMedia(ctx, team, pdf('held.pdf', 1_000))).statusCode).toBe(201);
    const ticket = (await bannerUrl(team)).json();
    const tooMuch = Buffer.concat([tinyPng(), Buffer.alloc(4_000, 1)]);
    for (const put of [
      () => putBytes(ctx, ticket, tooMuch),
      () => putChunked(ticket, [tooMuch.subarray(0, 1_000), tooMuch.subarray(1_000)]),
    ]) {
      const refused = await put();
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body.toString()).code).toBe('quota_exceeded');
      expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
      expect(await stats(team)).toMatchObject({ usedBytes: 0, reservedBytes: 1_000 });
    }
    // What is left still fits, chunked too, and registers.
    const fits = Buffer.concat([tinyPng(), Buffer.alloc(3_000, 1)]);
    expect((await putChunked(ticket, [fits.subarray(0, 10), fits.subarray(10)])).status).toBe(200);
    expect(await stats(team)).toMatchObject({ reservedBytes: 1_000 + fits.length });
    const set = await setBanner(team, ticket.fileKey);
    expect(set.statusCode, set.body).toBe(200);
    expect(await stats(team)).toMatchObject({ usedBytes: fits.length, reservedBytes: 1_000 });
    await expectNoOrphans(ctx);
  });

  it('lets only one of two PUTs racing for the last free bytes through', async () => {
    const team = await ctx.newTeam();
    await ctx.setQuota(team, 10_000);
    const png = Buffer.concat([tinyPng(), Buffer.alloc(6_000, 1)]);
    for (let round = 0; round < 3; round++) {
      const [a, b] = [(await bannerUrl(team)).json(), (await bannerUrl(team)).json()];
      const puts = await Promise.all([putBytes(ctx, a, png), putBytes(ctx, b, png)]);
      expect(puts.map((p) => p.status).sort()).toEqual([200, 413]);
      expect((await stats(team)).reservedBytes).toBe(png.length);
      const winner = puts[0]!.status === 200 ? a : b;
      expect((await setBanner(team, winner.fileKey)).statusCode).toBe(200);
      expect(await stats(team)).toMatchObject({ usedBytes: png.length, reservedBytes: 0 });
      const removed = await ctx.request({
        method: 'DELETE',
        url: `/api/v1/teams/${team.id}/banner`,
        token: team.owner.token,
      });
      expect(removed.statusCode).toBe(204);
    }
  });

  it('takes an open-upload slot with the first bytes of a URL that names no size; expired uploads free theirs', async () => {
    const team = await ctx.newTeam();
    const held = [];
    for (let i = 0; i < MAX_OPEN; i++) held.push((await startMedia(ctx, team, pdf(`${i}.pdf`, 10))).json());
    const banner = await bannerUrl(team);
    expect(banner.statusCode, banner.body).toBe(200);
    const refused = await putBytes(ctx, banner.json(), tinyPng());
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.body.toString()).code).toBe('too_many_open_uploads');
    expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);

    // Past the pending lifetime the slots free, before any cleanup job ran.
    const ttl = ctx.config.storage.pendingUploadTtlSeconds * 1000;
    ctx.clock.advance(ttl + 1000);
    try {
      expect(await stats(team)).toMatchObject({ reservedBytes: 0, pendingUploads: 0 });
      const fresh = (await bannerUrl(team)).json();
      expect((await putBytes(ctx, fresh, tinyPng())).status).toBe(200);
      expect((await startMedia(ctx, team, pdf('later.pdf', 10))).statusCode).toBe(201);
    } finally {
      ctx.clock.advance(-(ttl + 1000));
    }
  });

  it('refuses a PUT of more bytes than the upload reserved (413)', async () => {
    const team = await ctx.newTeam();
    const ticket = (await bannerUrl(team)).json();
    const put = await putBytes(ctx, ticket, Buffer.concat([tinyPng(), Buffer.alloc(IMAGE_MAX, 1)]));
    expect(put.status).toBe(413);
    expect(JSON.parse(put.body.toString()).code).toBe('payload_too_large');
  });

  it(`caps the open uploads of a team at MAX_OPEN_UPLOADS_PER_TEAM (409 too_many_open_uploads)`, async () => {
    const team = await ctx.newTeam();
    const tickets = [];
    for (let i = 0; i < MAX_OPEN; i++) {
      const res = await startMedia(ctx, team, pdf(`${i}.pdf`, 10));
      expect(res.statusCode, res.body).toBe(201);
      tickets.push(res.json());
    }
    const capped = await startMedia(ctx, team, pdf('more.pdf', 10));
    expect(capped.statusCode).toBe(409);
    expect(capped.json().code).toBe('too_many_open_uploads');
    // Another team is not affected; registering or discarding one makes room again.
    expect((await startMedia(ctx, await ctx.newTeam(), pdf('other.pdf', 10))).statusCode).toBe(201);
    expect((await putBytes(ctx, tickets[0], Buffer.alloc(10, 1))).status).toBe(200);
    expect((await confirmMedia(ctx, team, tickets[0].id)).statusCode).toBe(200);
    expect((await startMedia(ctx, team, pdf('again.pdf', 10))).statusCode).toBe(201);
    expect((await startMedia(ctx, team, pdf('over.pdf', 10))).statusCode).toBe(409);
    expect((await discardMedia(team, tickets[1].id)).statusCode).toBe(204);
    expect((await startMedia(ctx, team, pdf('room.pdf', 10))).statusCode).toBe(201);
  });

  it('lets only one of two concurrent upload URLs take the last free bytes', async () => {
    const team = await ctx.newTeam();
    await ctx.setQuota(team, 10_000);
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all([
        startMedia(ctx, team, pdf(`x${round}.pdf`, 6_000)),
        startMedia(ctx, team, pdf(`y${round}.pdf`, 6_000)),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 413]);
      const winner = results.find((r) => r.statusCode === 201)!.json();
      expect((await discardMedia(team, winner.id)).statusCode).toBe(204);
    }
  });
});

/** Waits until `count` statements of this database wait for a lock (PostgreSQL only). */
async function waitForLockWaiters(count: number) {
  for (let i = 0; i < 500; i++) {
    const [row] = await rows(sql`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`);
    if (Number(row!.waiting) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} statements ever waited for a lock`);
}

describe('a hard delete racing a registration', () => {
  it('leaves no file row of the deleted track and exact team storage', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const png = tinyPng(30);
    const started = await ctx.request({
      method: 'POST',
      url: `/api/v1/tracks/${track.id}/covers`,
      token: team.owner.token,
      payload: { fileName: 'front.png', fileSize: png.length },
    });
    expect(started.statusCode, started.body).toBe(201);
    const ticket = started.json();
    expect((await putBytes(ctx, ticket, png)).status).toBe(200);

    const register = () =>
      ctx.request({
        method: 'POST',
        url: `/api/v1/tracks/${track.id}/covers/${ticket.id}/added`,
        token: team.owner.token,
      });
    const hardDelete = () =>
      ctx.request({
        method: 'DELETE',
        url: `/api/v1/tracks/${track.id}?mode=hard`,
        token: team.owner.token,
      });

    let results: Awaited<ReturnType<typeof register>>[];
    if (ctx.app.deps.database.kind === 'postgres') {
      // The worst interleaving, made certain: the registration holds the upload's row while it waits for the
      // storage counter; the delete starts then, and waits for the upload's row in turn.
      const db = ctx.app.deps.database.db;
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = db.transaction(async (tx) => {
        await lockStorage(tx, team.id);
        locked();
        await held;
      });
      await isLocked;
      const registering = register();
      await waitForLockWaiters(1);
      const deleting = hardDelete();
      await waitForLockWaiters(2);
      release();
      await holder;
      results = await Promise.all([registering, deleting]);
    } else {
      results = await Promise.all([register(), hardDelete()]);
    }
    const [added, deleted] = results;
    expect([200, 404, 409]).toContain(added!.statusCode);
    expect(deleted!.statusCode, deleted!.body).toBe(204);

    const left = await rows(sql`
      select id from files where owner_type = 'track_cover' and owner_id = ${String(track.id)}`);
    expect(left).toEqual([]);
    expect(await storageOf(team.id)).toEqual({ count: 0, sum: 0, counter: 0 });
    await ctx.app.services.files.drainDeletions();
    await expectNoOrphans(ctx);
  });
});
