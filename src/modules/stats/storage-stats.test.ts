import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { queryRows } from '../../../test/helpers/database.ts';
import {
  confirmMedia,
  expectNoOrphans,
  putBytes,
  startMedia,
  storageStats,
  testWav,
  uploadMedia,
} from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { tinyPng } from '../../../test/helpers/track-files.ts';

const ctx = useStorageTestContext('local');

const stats = (team: TestTeam) => storageStats(ctx, team);

async function storedBytes(teamId: number): Promise<{ sum: number; count: number; counter: number }> {
  const [row] = await queryRows(
    ctx.app.deps.database.db,
    sql`
    select coalesce((select sum(size) from files where team_id = ${teamId}), 0)::bigint as sum,
           (select count(*) from files where team_id = ${teamId})::int as count,
           coalesce((select used_bytes from team_storage where team_id = ${teamId}), 0)::bigint as counter`,
  );
  return { sum: Number(row!.sum), count: Number(row!.count), counter: Number(row!.counter) };
}

/** Ready to register: an upload URL asked for and its bytes PUT. */
async function uploaded(team: TestTeam, size: number, name = 'doc.txt') {
  const ticket = (
    await startMedia(ctx, team, { fileName: name, fileSize: size, mediaType: 'text/plain' })
  ).json();
  expect((await putBytes(ctx, ticket, Buffer.alloc(size, 97))).status).toBe(200);
  return ticket as { id: number };
}

describe('GET /api/v1/stats/storage', () => {
  it("answers a new team's empty storage against its plan's quota", async () => {
    const team = await ctx.newTeam();
    expect(await stats(team)).toEqual({
      teamId: team.id,
      plan: { id: 'free', name: 'Free' },
      quotaBytes: 5_368_709_120,
      usedBytes: 0,
      availableBytes: 5_368_709_120,
      usedPercent: 0,
      fileCount: 0,
      pendingUploads: 0,
      reservedBytes: 0,
      byKind: {
        audio: { bytes: 0, files: 0 },
        image: { bytes: 0, files: 0 },
        video: { bytes: 0, files: 0 },
        document: { bytes: 0, files: 0 },
      },
    });
  });

  it('counts registered files per kind, not pending uploads, and follows deletes', async () => {
    const team = await ctx.newTeam();
    await ctx.setQuota(team, 1_000_000);
    const wav = testWav(0.2);
    const audio = await uploadMedia(ctx, team, wav, 'a.wav', 'audio/wav');
    const png = Buffer.concat([tinyPng(), Buffer.alloc(300 - tinyPng().length, 1)]);
    await uploadMedia(ctx, team, png, 'b.png', 'image/png');
    await uploadMedia(ctx, team, Buffer.alloc(500, 1), 'c.txt', 'text/plain');
    await uploadMedia(ctx, team, Buffer.alloc(700, 1), 'teaser.mp4', 'video/mp4');
    await startMedia(ctx, team, { fileName: 'd.txt', fileSize: 10, mediaType: 'text/plain' });
    const used = wav.length + 1500;
    expect(await stats(team)).toMatchObject({
      usedBytes: used,
      availableBytes: 1_000_000 - used,
      usedPercent: Math.round((used / 1_000_000) * 10_000) / 100,
      fileCount: 4,
      pendingUploads: 1,
      reservedBytes: 10,
      byKind: {
        audio: { bytes: wav.length, files: 1 },
        image: { bytes: 300, files: 1 },
        video: { bytes: 700, files: 1 },
        document: { bytes: 500, files: 1 },
      },
    });
    await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/media/${audio.id}`,
      token: team.owner.token,
    });
    expect(await stats(team)).toMatchObject({
      usedBytes: 1500,
      fileCount: 3,
      byKind: { audio: { bytes: 0, files: 0 } },
    });
  });

  it('needs teamId and hides other teams (404)', async () => {
    const team = await ctx.newTeam();
    const outsider = await ctx.newUser();
    const missing = await ctx.request({
      method: 'GET',
      url: '/api/v1/stats/storage',
      token: team.owner.token,
    });
    expect(missing.statusCode).toBe(400);
    const hidden = await ctx.request({
      method: 'GET',
      url: `/api/v1/stats/storage?teamId=${team.id}`,
      token: outsider.token,
    });
    expect(hidden.statusCode).toBe(404);
  });
});

describe('storage accounting under concurrency', () => {
  it('stays exact while registrations and deletes run at the same time', async () => {
    const team = await ctx.newTeam();
    const sizes = Array.from({ length: 12 }, (_, i) => 1000 + i * 37);
    const kept = await Promise.all(sizes.slice(0, 4).map((size, i) => uploaded(team, size, `k${i}.txt`)));
    for (const ticket of kept) expect((await confirmMedia(ctx, team, ticket.id)).statusCode).toBe(200);
    const fresh = await Promise.all(sizes.slice(4).map((size, i) => uploaded(team, size, `f${i}.txt`)));

    const results = await Promise.all([
      ...fresh.map((ticket) => confirmMedia(ctx, team, ticket.id)),
      // Each upload confirmed twice at once: it must be counted once.
      ...fresh.map((ticket) => confirmMedia(ctx, team, ticket.id)),
      ...kept.slice(0, 2).map((ticket) =>
        ctx.request({
          method: 'DELETE',
          url: `/api/v1/teams/${team.id}/media/${ticket.id}`,
          token: team.owner.token,
        }),
      ),
    ]);
    for (const res of results) expect([200, 204, 409], res.body).toContain(res.statusCode);

    const expected = sizes.slice(2).reduce((a, b) => a + b, 0);
    const stored = await storedBytes(team.id);
    expect(stored).toEqual({ sum: expected, count: 10, counter: expected });
    expect(await stats(team)).toMatchObject({ usedBytes: expected, fileCount: 10 });
    await expectNoOrphans(ctx);
  });

  it('lets exactly as many concurrent upload URLs through as the quota holds', async () => {
    const team = await ctx.newTeam();
    await ctx.setQuota(team, 10_000);
    const requests = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        startMedia(ctx, team, { fileName: `q${i}.txt`, fileSize: 3000, mediaType: 'text/plain' }),
      ),
    );
    const statuses = requests.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 413, 413, 413, 413, 413]);
    for (const res of requests.filter((r) => r.statusCode === 413))
      expect(res.json().code).toBe('quota_exceeded');
    expect(await stats(team)).toMatchObject({ usedBytes: 0, reservedBytes: 9000, pendingUploads: 3 });
    const tickets = requests.filter((r) => r.statusCode === 201).map((r) => r.json());
    for (const ticket of tickets)
      expect((await putBytes(ctx, ticket, Buffer.alloc(3000, 1))).status).toBe(200);
    const results = await Promise.all(tickets.map((ticket) => confirmMedia(ctx, team, ticket.id)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await storedBytes(team.id)).toEqual({ sum: 9000, count: 3, counter: 9000 });
    expect(await stats(team)).toMatchObject({ usedBytes: 9000, reservedBytes: 0, pendingUploads: 0 });
  });
});
