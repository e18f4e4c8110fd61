import type { TestContext, TestTeam, TestUser } from './context.ts';

export type TestAlbum = {
  id: number;
  teamId: number;
  title: string;
  statusId: string;
  position: number;
  createdAt: string;
};

/** Album helpers that go through the public API, as clients do. */
export function albumHelpers(ctx: TestContext) {
  async function newAlbum(
    team: TestTeam,
    fields: Record<string, unknown> = {},
    user: TestUser = team.owner,
  ): Promise<TestAlbum> {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/albums/',
      token: user.token,
      payload: { title: `Album ${ctx.unique()}`, teamId: team.id, ...fields },
    });
    if (res.statusCode !== 201) throw new Error(`album create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  async function addTracks(team: TestTeam, albumId: number, trackIds: number[], user: TestUser = team.owner) {
    const res = await ctx.request({
      method: 'POST',
      url: `/api/v1/albums/${albumId}/tracks`,
      token: user.token,
      payload: { trackIds },
    });
    if (res.statusCode !== 200) throw new Error(`adding tracks failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  /** An album holding `count` new tracks of the team, in creation order. */
  async function albumWithTracks(team: TestTeam, count: number) {
    const album = await newAlbum(team);
    const tracks = [];
    for (let i = 0; i < count; i++) tracks.push(await ctx.newTrack(team));
    await addTracks(
      team,
      album.id,
      tracks.map((t) => t.id),
    );
    return { album, trackIds: tracks.map((t) => t.id) };
  }

  async function getAlbum(team: TestTeam, albumId: number, token = team.owner.token) {
    const res = await ctx.request({ method: 'GET', url: `/api/v1/albums/${albumId}`, token });
    if (res.statusCode !== 200) throw new Error(`album get failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  return { newAlbum, addTracks, albumWithTracks, getAlbum };
}
