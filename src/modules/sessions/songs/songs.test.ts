import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { sessionHelpers } from '../sessions.test-support.ts';

const NOW = Date.parse('2031-06-01T12:00:00.000Z');
const clock = new TestClock(NOW);
const ctx = useTestContext({ clock });
const { newSession, activityOf } = sessionHelpers(ctx);

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

let team: TestTeam;
let member: TestUser;
let base: string;
let sessionId: number;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
  sessionId = (await newSession(team)).id;
  base = `/api/v1/sessions/${sessionId}/songs`;
});

describe('songs', () => {
  it('links tracks the team holds (201, then 200 again), lists them in order, unlinks them', async () => {
    const own = await ctx.newTrack(team, { title: 'Own song' });
    const lender = await ctx.newTeam(team.owner);
    const shared = await ctx.newTrack({ ...lender, shareWith: [team.id] }, { title: 'Shared song' });

    const added = await call('POST', base, member.token, { teamId: team.id, trackId: own.id });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toEqual({
      sessionId,
      trackId: own.id,
      title: 'Own song',
      artist: null,
      statusId: 'idea',
      addedBy: member.id,
      addedAt: new Date(NOW).toISOString(),
    });
    clock.advance(1000);
    expect((await call('POST', base, member.token, { trackId: shared.id })).statusCode).toBe(201);
    const again = await call('POST', base, team.owner.token, { trackId: own.id });
    expect(again.statusCode).toBe(200);
    expect(again.json().addedBy).toBe(member.id);

    const list = await call('GET', `${base}?teamId=${team.id}&limit=1`, member.token);
    expect(list.json().items.map((s: { title: string }) => s.title)).toEqual(['Own song']);
    const rest = await call(
      'GET',
      `${base}?teamId=${team.id}&limit=1&cursor=${list.json().nextCursor}`,
      member.token,
    );
    expect(rest.json()).toMatchObject({ items: [{ title: 'Shared song' }], nextCursor: null });

    expect((await call('DELETE', `${base}/${own.id}`, member.token)).statusCode).toBe(204);
    expect((await call('DELETE', `${base}/${own.id}`, member.token)).statusCode).toBe(404);
    const after = await call('GET', `${base}?teamId=${team.id}`, member.token);
    expect(after.json().items.map((s: { trackId: number }) => s.trackId)).toEqual([shared.id]);
    const actions = (await activityOf(sessionId)).map((a) => a.action);
    expect(actions.filter((a) => a.startsWith('session.song.'))).toEqual([
      'session.song.added',
      'session.song.added',
      'session.song.removed',
    ]);
  });

  it("refuses another team's track, a deleted one and unknown ones with 404, and bad bodies with 400", async () => {
    const stranger = await ctx.newTeam();
    const foreign = await ctx.newTrack(stranger);
    const deleted = await ctx.newTrack(team);
    expect((await call('DELETE', `/api/v1/tracks/${deleted.id}`, team.owner.token)).statusCode).toBe(204);
    for (const trackId of [foreign.id, deleted.id, 99_999_999]) {
      const res = await call('POST', base, member.token, { trackId });
      expect(res.statusCode, String(trackId)).toBe(404);
      expect(res.json().error).toContain('Track');
    }
    for (const body of [{}, { trackId: 'x' }, { trackId: 1, extra: true }, { trackId: -1 }]) {
      expect((await call('POST', base, member.token, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('POST', base, stranger.owner.token, { trackId: foreign.id })).statusCode).toBe(404);
    expect(
      (await call('POST', base, member.token, { teamId: stranger.id, trackId: foreign.id })).statusCode,
    ).toBe(404);
    expect((await call('GET', `${base}?teamId=${stranger.id}`, member.token)).statusCode).toBe(404);
    expect((await call('GET', base, member.token)).statusCode).toBe(200);
  });

  it('hides a linked track once it is deleted', async () => {
    const track = await ctx.newTrack(team, { title: 'Short-lived' });
    await call('POST', base, member.token, { trackId: track.id });
    await call('DELETE', `/api/v1/tracks/${track.id}`, team.owner.token);
    const list = await call('GET', `${base}?teamId=${team.id}`, member.token);
    expect(list.json().items.map((s: { title: string }) => s.title)).not.toContain('Short-lived');
  });
});
