import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import { approvalHelpers } from '../../../test/helpers/approvals.ts';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';

const ctx = useTestContext();
const { requireOn, review, move, statusOf } = approvalHelpers(ctx);
const { albumWithTracks, newAlbum } = albumHelpers(ctx);

const cards = async (team: TestTeam) => {
  const res = await ctx.request({
    method: 'GET',
    url: `/api/v1/albums/?teamId=${team.id}&sort=board`,
    token: team.owner.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return new Map((res.json().items as { id: number; blockedBy: unknown }[]).map((a) => [a.id, a.blockedBy]));
};

describe('album statuses that require approvals', () => {
  it('moves an album only when every track on it meets the requirement (409 names the others)', async () => {
    const team = await ctx.newTeam();
    const a = await ctx.addMember(team);
    await requireOn(team, 'albums', { ready: { approvals: 1 } });
    const { album, trackIds } = await albumWithTracks(team, 2);
    const [first, second] = trackIds as [number, number];
    const owner = team.owner.token;
    expect((await move('albums', album.id, 'in_production', owner)).statusCode).toBe(200);

    const none = await move('albums', album.id, 'ready', owner);
    expect(none.statusCode, none.body).toBe(409);
    expect(none.json()).toMatchObject({
      code: 'approval_required',
      details: [{ path: '/body/status', status: 'ready', required: 1, have: 0, missing: [first, second] }],
    });
    expect((await cards(team)).get(album.id)).toEqual({ status: 'ready', required: 1, have: 0 });

    const versionOf = async (trackId: number) =>
      (await ctx.request({ method: 'GET', url: `/api/v1/tracks/${trackId}/versions`, token: owner })).json()
        .items[0].id as number;
    await review(team, { id: first, versionId: await versionOf(first) }, [[a, 'approved']]);
    const one = await move('albums', album.id, 'ready', owner);
    expect(one.statusCode).toBe(409);
    expect(one.json().details[0].missing).toEqual([second]);
    expect(await statusOf('albums', album.id, owner)).toBe('in_production');

    await review(team, { id: second, versionId: await versionOf(second) }, [[a, 'approved']]);
    expect((await cards(team)).get(album.id)).toBeNull();
    const moved = await move('albums', album.id, 'ready', owner);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().statusId).toBe('ready');
  });

  it('lets an album without tracks through, and gates configuration moves too', async () => {
    const team = await ctx.newTeam();
    await requireOn(team, 'albums', { ready: { approvals: 1 } });
    const empty = await newAlbum(team);
    const { album, trackIds } = await albumWithTracks(team, 1);
    await move('albums', empty.id, 'in_production', team.owner.token);
    await move('albums', album.id, 'in_production', team.owner.token);
    const config = (
      await ctx.request({
        method: 'GET',
        url: `/api/v1/teams/${team.id}/status-config`,
        token: team.owner.token,
      })
    ).json();
    const albums = config.albums.filter((s: { id: string }) => s.id !== 'in_production');
    const res = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
      payload: { patch: { albums, moves: { albums: { in_production: 'ready' } } } },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().details[0]).toMatchObject({ status: 'ready', missing: trackIds });
    expect(await statusOf('albums', album.id, team.owner.token)).toBe('in_production');
    expect(await statusOf('albums', empty.id, team.owner.token)).toBe('in_production');
    expect((await move('albums', empty.id, 'ready', team.owner.token)).statusCode).toBe(200);
  });
});
