import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import { TestClock, type TestTeam, type TestTrack, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import {
  albums,
  teamStorage,
  tracks,
  trackTeams,
  trackVersions,
  versionComments,
  versionPlays,
  versionReviews,
  versionTodos,
} from '../../db/schema/index.ts';
import { overviewQuery } from './overview-stats.repository.ts';
import { planWithoutSeqScans, seqScannedTables } from './query-plan.test-support.ts';

const clock = new TestClock(Date.parse('2031-03-15T12:00:00.000Z'));
const ctx = useTestContext({ clock });
const { newAlbum } = albumHelpers(ctx);

const DAY = 86_400_000;
const ago = (days: number) => new Date(clock.now().getTime() - days * DAY);

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/stats/overview',
    build: (team) => ({ url: `/api/v1/stats/overview?teamId=${team.id}` }),
  },
];

const overview = (team: TestTeam, token = team.owner.token) =>
  ctx.request({ method: 'GET', url: `/api/v1/stats/overview?teamId=${team.id}`, token });

/** A team's whole activity: live tracks in three statuses, a deleted one, work and plays on their versions. */
async function busyTeam(): Promise<{ team: TestTeam; deleted: TestTrack }> {
  const db = ctx.database.db;
  const team = await ctx.newTeam();
  const [t1, t2, t3, deleted, legacy] = [
    await ctx.newTrack(team),
    await ctx.newTrack(team),
    await ctx.newTrack(team, { statusId: 'mixing' }),
    await ctx.newTrack(team, { statusId: 'ready' }),
    await ctx.newTrack(team),
  ] as TestTrack[] as [TestTrack, TestTrack, TestTrack, TestTrack, TestTrack];
  await db.update(tracks).set({ statusId: 'legacy' }).where(eq(tracks.id, legacy.id));
  const t1Older = await ctx.newVersion(t1);
  const setCreated = (id: number, at: Date) =>
    db.update(trackVersions).set({ createdAt: at }).where(eq(trackVersions.id, id));
  for (const version of [t1.versionId, t3.versionId, deleted.versionId]) await setCreated(version, ago(1));
  await setCreated(t1Older.id, ago(10));
  await setCreated(t2.versionId, ago(40));
  await setCreated(legacy.versionId, ago(40));

  const comment = (versionId: number, days: number) => ({
    versionId,
    body: 'nice',
    createdAt: ago(days),
    createdBy: team.owner.id,
  });
  await db
    .insert(versionComments)
    .values([
      comment(t1.versionId, 0),
      comment(t1.versionId, 20),
      comment(t2.versionId, 3),
      comment(deleted.versionId, 0),
      comment(t3.versionId, 45),
    ]);
  await db.insert(versionTodos).values([
    { versionId: t1.versionId, text: 'fix the intro' },
    { versionId: t1Older.id, text: 'louder', done: false },
    { versionId: t1.versionId, text: 'done already', done: true },
    { versionId: deleted.versionId, text: 'gone with its track' },
  ]);
  await db.insert(versionReviews).values([
    { versionId: t1.versionId, status: 'pending' },
    { versionId: t2.versionId, status: 'approved' },
    { versionId: t3.versionId, status: 'pending' },
    { versionId: legacy.versionId, status: 'withdrawn' },
    { versionId: deleted.versionId, status: 'pending' },
  ]);
  await db.insert(versionPlays).values([
    { versionId: t1.versionId, playedAt: ago(0) },
    { versionId: t1.versionId, playedAt: ago(2) },
    { versionId: t1.versionId, playedAt: ago(31) },
    { versionId: t3.versionId, playedAt: ago(29) },
    { versionId: deleted.versionId, playedAt: ago(1) },
  ]);
  const planned = await newAlbum(team);
  const ready = await newAlbum(team);
  await db.update(albums).set({ statusId: 'ready' }).where(eq(albums.id, ready.id));
  expect(planned.statusId).toBe('idea');
  await db.insert(teamStorage).values({ teamId: team.id, usedBytes: 1234, fileCount: 2 });
  await db
    .update(tracks)
    .set({ deletedAt: ago(0) })
    .where(eq(tracks.id, deleted.id));
  return { team, deleted };
}

describe('GET /api/v1/stats/overview', () => {
  let team: TestTeam;
  let other: TestTeam;

  beforeAll(async () => {
    ({ team } = await busyTeam());
    // Another team's busy activity, and a track of it shared with `team`: none of it counts for `team`.
    ({ team: other } = await busyTeam());
    const [foreign] = await ctx.database.db.select().from(tracks).where(eq(tracks.teamId, other.id)).limit(1);
    await ctx.database.db.insert(trackTeams).values({ trackId: foreign!.id, teamId: team.id });
  });

  it("counts the team's own live tracks and albums per status, its recent work, plays and storage", async () => {
    const res = await overview(team);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      teamId: team.id,
      tracks: {
        total: 4,
        byStatus: [
          { statusId: 'idea', name: 'Idea', count: 2 },
          { statusId: 'writing', name: 'Writing', count: 0 },
          { statusId: 'recording', name: 'Recording', count: 0 },
          { statusId: 'mixing', name: 'Mixing', count: 1 },
          { statusId: 'mastering', name: 'Mastering', count: 0 },
          { statusId: 'ready', name: 'Ready', count: 0 },
          { statusId: 'released', name: 'Released', count: 0 },
          { statusId: 'legacy', name: 'legacy', count: 1 },
        ],
      },
      albums: {
        total: 2,
        byStatus: [
          { statusId: 'idea', name: 'Idea', count: 1 },
          { statusId: 'planning', name: 'Planning', count: 0 },
          { statusId: 'in_production', name: 'In production', count: 0 },
          { statusId: 'ready', name: 'Ready', count: 1 },
          { statusId: 'released', name: 'Released', count: 0 },
        ],
      },
      versions: { last7Days: 2, last30Days: 3 },
      comments: { last7Days: 2, last30Days: 3 },
      openTodos: 2,
      pendingReviews: 2,
      plays: { last30Days: 3 },
      storage: { usedBytes: 1234, quotaBytes: 5_368_709_120, fileCount: 2 },
    });
    // The other team sees its own numbers, the same shape of activity.
    expect((await overview(other)).json()).toMatchObject({
      tracks: { total: 4 },
      openTodos: 2,
      plays: { last30Days: 3 },
    });
  });

  it('moves its windows with time', async () => {
    clock.advance(8 * DAY);
    try {
      // A week on, the owner signs in again (the earlier access token has expired).
      const login = await ctx.request({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: team.owner.email, password: team.owner.password },
      });
      expect((await overview(team, login.json().access_token)).json()).toMatchObject({
        versions: { last7Days: 0, last30Days: 3 },
        comments: { last7Days: 0, last30Days: 3 },
        plays: { last30Days: 2 },
      });
    } finally {
      clock.advance(-8 * DAY);
    }
  });

  it('answers a member, and zeros for a new team', async () => {
    const member = await ctx.addMember(team, 'member');
    expect((await overview(team, member.token)).json().openTodos).toBe(2);
    const fresh = await ctx.newTeam();
    expect((await overview(fresh)).json()).toMatchObject({
      tracks: { total: 0 },
      albums: { total: 0 },
      versions: { last7Days: 0, last30Days: 0 },
      comments: { last7Days: 0, last30Days: 0 },
      openTodos: 0,
      pendingReviews: 0,
      plays: { last30Days: 0 },
      storage: { usedBytes: 0, fileCount: 0 },
    });
  });

  it('needs a valid teamId and hides other teams (404)', async () => {
    for (const query of ['', '?teamId=abc', '?teamId=0', '?teamId=99999999999']) {
      const res = await ctx.request({
        method: 'GET',
        url: `/api/v1/stats/overview${query}`,
        token: team.owner.token,
      });
      expect(res.statusCode, query).toBe(400);
    }
    const missing = await ctx.request({
      method: 'GET',
      url: '/api/v1/stats/overview?teamId=2147483647',
      token: team.owner.token,
    });
    expect(missing.statusCode).toBe(404);
    expect((await overview(other, team.owner.token)).statusCode).toBe(404);
  });

  it('reads every count through indexes (no table is scanned whole)', async () => {
    const query = overviewQuery(ctx.database.db, team.id, clock.now()).toSQL();
    const plan = await planWithoutSeqScans(ctx.database, query);
    expect(seqScannedTables(plan), plan).toEqual([]);
  });

  it('is session-only (S)', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.operationId === 'stats.overview',
      { 'GET /api/v1/stats/overview': { auth: 'session', extension: false } },
      cases,
    );
  });
});

describeSecurityMatrix(ctx, cases);
