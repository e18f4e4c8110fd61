import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix } from '../../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

describe('track collections', () => {
  it('groups the caller’s tracks per team and status, shared ones apart', async () => {
    const owner = await ctx.newUser();
    const a = await ctx.newTeam(owner, `A ${ctx.unique()}`);
    const b = await ctx.newTeam(owner, `B ${ctx.unique()}`);
    const stranger = await ctx.newTeam();
    const idea = await ctx.newTrack(a, { title: 'Idea song' });
    const mixing = await ctx.newTrack(a, { title: 'Mixing song', statusId: 'mixing' });
    const inB = await ctx.newTrack(b, { title: 'B song' });
    const shared = await ctx.newTrack(stranger, { title: 'Shared in' });
    const gone = await ctx.newTrack(a, { title: 'Deleted' });
    await ctx.request({ method: 'DELETE', url: `/api/v1/tracks/${gone.id}`, token: owner.token });
    // Sharing is for owners and admins of the owning team.
    await ctx.addMember(stranger, 'admin', owner);
    await ctx.shareTrack(shared.id, b.id, owner.token);

    const res = await ctx.request({ method: 'GET', url: '/api/v1/track-collections/', token: owner.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.truncated).toBe(false);
    const byTeam = new Map(body.items.map((t: { teamId: number }) => [t.teamId, t]));
    expect([...byTeam.keys()].sort()).toEqual([a.id, b.id, stranger.id].sort());
    const teamA = byTeam.get(a.id) as { statuses: { statusId: string; tracks: { id: number }[] }[] };
    expect(teamA.statuses.map((s) => s.statusId)).toEqual([
      'idea',
      'writing',
      'recording',
      'mixing',
      'mastering',
      'ready',
      'released',
    ]);
    expect(teamA.statuses[0]!.tracks.map((t) => t.id)).toEqual([idea.id]);
    expect(teamA.statuses[3]!.tracks.map((t) => t.id)).toEqual([mixing.id]);
    const teamB = byTeam.get(b.id) as { statuses: { tracks: { id: number }[] }[]; shared: { id: number }[] };
    expect(teamB.statuses[0]!.tracks.map((t) => t.id)).toEqual([inB.id]);
    expect(teamB.shared.map((t) => t.id)).toEqual([shared.id]);
  });
});

describeSecurityMatrix(ctx, [
  {
    method: 'GET',
    path: '/api/v1/track-collections/',
    build: () => ({ url: '/api/v1/track-collections/' }),
    teamScoped: false,
  },
]);
