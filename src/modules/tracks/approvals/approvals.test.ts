import { describe, expect, it } from 'vitest';
import { approvalHelpers } from '../../../../test/helpers/approvals.ts';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import { ownerEvents } from '../../../../test/helpers/events.ts';

const ctx = useTestContext();
const { requireOn, review, move, statusOf } = approvalHelpers(ctx);

const board = async (team: TestTeam, token = team.owner.token) => {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/tracks/?teamId=${team.id}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return new Map((res.json().items as { id: number; blockedBy: unknown }[]).map((t) => [t.id, t.blockedBy]));
};

describe('statuses that require approvals (tracks)', () => {
  it('refuses a move without two approvals by allowed roles, and takes it once they are there', async () => {
    const team = await ctx.newTeam();
    const [a, b] = [await ctx.addMember(team, 'admin'), await ctx.addMember(team, 'admin')];
    const member = await ctx.addMember(team, 'member');
    await requireOn(team, 'tracks', { ready: { approvals: 2, roles: ['owner', 'admin'] } });
    const track = await ctx.newTrack(team, { statusId: 'mastering' });
    const owner = team.owner.token;

    const refused = await move('tracks', track.id, 'ready', owner);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'approval_required',
      details: [
        {
          path: '/body/status',
          status: 'ready',
          required: 2,
          have: 0,
          roles: ['owner', 'admin'],
          missing: [track.id],
        },
      ],
    });
    expect(await statusOf('tracks', track.id, owner)).toBe('mastering');

    // A member's approval is not of a listed role: it does not count.
    await review(team, track, [
      [a, 'approved'],
      [member, 'approved'],
    ]);
    const one = await move('tracks', track.id, 'ready', owner);
    expect(one.statusCode).toBe(409);
    expect(one.json().details[0]).toMatchObject({ required: 2, have: 1 });
    expect(await statusOf('tracks', track.id, owner)).toBe('mastering');

    await review(team, track, [[b, 'approved']]);
    const moved = await move('tracks', track.id, 'ready', owner);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().statusId).toBe('ready');

    // Leaving the status, or setting the status it has, is never gated.
    expect((await move('tracks', track.id, 'ready', owner)).statusCode).toBe(200);
    expect((await move('tracks', track.id, 'mastering', owner)).statusCode).toBe(200);

    // A later "changes requested" of an approver takes their approval back.
    await review(team, track, [[a, 'changes_requested']]);
    const withdrawn = await move('tracks', track.id, 'ready', owner);
    expect(withdrawn.statusCode).toBe(409);
    expect(withdrawn.json().details[0]).toMatchObject({ have: 1 });
    await review(team, track, [[a, 'approved']]);
    expect((await move('tracks', track.id, 'ready', owner)).statusCode).toBe(200);
  });

  it('counts decisions on the current version only (the final one, else the newest)', async () => {
    const team = await ctx.newTeam();
    const a = await ctx.addMember(team);
    await requireOn(team, 'tracks', { ready: { approvals: 1 } });
    const track = await ctx.newTrack(team, { statusId: 'mastering' });
    await review(team, track, [[a, 'approved']]);
    const newer = await ctx.newVersion(track);
    const res = await move('tracks', track.id, 'ready', team.owner.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().details[0]).toMatchObject({ have: 0 });
    const final = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/tracks/${track.id}/versions/${track.versionId}/final`,
      token: team.owner.token,
    });
    expect(final.statusCode, final.body).toBe(200);
    expect((await move('tracks', track.id, 'ready', team.owner.token)).statusCode).toBe(200);
    expect(newer.id).toBeGreaterThan(track.versionId);
  });

  it('leaves out people who left the team', async () => {
    const team = await ctx.newTeam();
    const a = await ctx.addMember(team);
    await requireOn(team, 'tracks', { ready: { approvals: 1 } });
    const track = await ctx.newTrack(team, { statusId: 'mastering' });
    await review(team, track, [[a, 'approved']]);
    const left = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/members/${a.id}`,
      token: team.owner.token,
    });
    expect(left.statusCode, left.body).toBe(204);
    expect((await move('tracks', track.id, 'ready', team.owner.token)).statusCode).toBe(409);
  });

  it('auto-advances a track when a decision completes the next status, as the decider', async () => {
    const team = await ctx.newTeam();
    const [a, b] = [await ctx.addMember(team), await ctx.addMember(team)];
    await requireOn(team, 'tracks', { ready: { approvals: 2, autoAdvance: true } });
    const next = await ctx.newTrack(team, { statusId: 'mastering' });
    const earlier = await ctx.newTrack(team, { statusId: 'mixing' });

    await review(team, next, [[a, 'approved']]);
    expect(await statusOf('tracks', next.id, team.owner.token)).toBe('mastering');
    await review(team, next, [[b, 'approved']]);
    expect(await statusOf('tracks', next.id, team.owner.token)).toBe('ready');
    const changes = await ownerEvents(ctx.database.db, { teamId: team.id }, 'track.status_changed');
    expect(changes).toEqual([
      expect.objectContaining({
        subjectId: String(next.id),
        actorUserId: b.id,
        payload: { trackId: next.id, teamId: team.id, from: 'mastering', to: 'ready', reason: 'approvals' },
      }),
    ]);

    // Two statuses before the gate: the approvals are there, but the next status asks none.
    await review(team, earlier, [
      [a, 'approved'],
      [b, 'approved'],
    ]);
    expect(await statusOf('tracks', earlier.id, team.owner.token)).toBe('mixing');
  });

  it('does not advance on its own without autoAdvance, nor on a decision that does not count', async () => {
    const team = await ctx.newTeam();
    const [a, member] = [await ctx.addMember(team, 'admin'), await ctx.addMember(team)];
    await requireOn(team, 'tracks', {
      ready: { approvals: 1 },
      released: { approvals: 1, roles: ['admin'], autoAdvance: true },
    });
    const plain = await ctx.newTrack(team, { statusId: 'mastering' });
    await review(team, plain, [[a, 'approved']]);
    expect(await statusOf('tracks', plain.id, team.owner.token)).toBe('mastering');
    const gated = await ctx.newTrack(team, { statusId: 'ready' });
    await review(team, gated, [[member, 'approved']]);
    expect(await statusOf('tracks', gated.id, team.owner.token)).toBe('ready');
    await review(team, gated, [[a, 'approved']]);
    expect(await statusOf('tracks', gated.id, team.owner.token)).toBe('released');
  });

  it('shows on the board what keeps each card from its next status', async () => {
    const team = await ctx.newTeam();
    const a = await ctx.addMember(team);
    await requireOn(team, 'tracks', { ready: { approvals: 2 } });
    const waiting = await ctx.newTrack(team, { statusId: 'mastering' });
    const free = await ctx.newTrack(team);
    const last = await ctx.newTrack(team, { statusId: 'released' });
    await review(team, waiting, [[a, 'approved']]);
    const cards = await board(team, a.token);
    expect(cards.get(waiting.id)).toEqual({ status: 'ready', required: 2, have: 1 });
    expect(cards.get(free.id)).toBeNull();
    expect(cards.get(last.id)).toBeNull();
    await review(team, waiting, [[team.owner, 'approved']]);
    expect((await board(team)).get(waiting.id)).toBeNull();
  });

  it('lets no other way in: configuration moves and column reorders', async () => {
    const team = await ctx.newTeam();
    await requireOn(team, 'tracks', { ready: { approvals: 1 } });
    const track = await ctx.newTrack(team, { statusId: 'mastering' });
    const config = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
    });
    const withoutMastering = config.json().tracks.filter((s: { id: string }) => s.id !== 'mastering');
    const dropped = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
      payload: { patch: { tracks: withoutMastering, moves: { tracks: { mastering: 'ready' } } } },
    });
    expect(dropped.statusCode, dropped.body).toBe(409);
    expect(dropped.json()).toMatchObject({
      code: 'approval_required',
      details: [{ path: '/body/patch/moves/tracks/mastering', status: 'ready', missing: [track.id] }],
    });
    const after = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
    });
    expect(after.json()).toEqual(config.json());

    const reorder = await ctx.request({
      method: 'POST',
      url: '/api/v1/tracks/reorder',
      token: team.owner.token,
      payload: { statusId: 'ready', trackOrders: [{ trackId: track.id, order: 0 }] },
    });
    expect(reorder.statusCode).toBe(400);
    expect(await statusOf('tracks', track.id, team.owner.token)).toBe('mastering');

    // A move to an ungated status passes as before.
    const toMixing = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
      payload: { patch: { tracks: withoutMastering, moves: { tracks: { mastering: 'mixing' } } } },
    });
    expect(toMixing.statusCode, toMixing.body).toBe(200);
    expect(await statusOf('tracks', track.id, team.owner.token)).toBe('mixing');
  });
  it('counts soft-deleted tracks in configuration moves, so restoring one brings no track in unapproved', async () => {
    const team = await ctx.newTeam();
    await requireOn(team, 'tracks', { ready: { approvals: 1 } });
    const track = await ctx.newTrack(team, { statusId: 'mastering' });
    const deleted = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/tracks/${track.id}`,
      token: team.owner.token,
    });
    expect(deleted.statusCode).toBe(204);
    const config = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
    });
    const tracks = config.json().tracks.filter((s: { id: string }) => s.id !== 'mastering');
    const res = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
      payload: { patch: { tracks, moves: { tracks: { mastering: 'ready' } } } },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().details[0].missing).toEqual([track.id]);
  });
});
