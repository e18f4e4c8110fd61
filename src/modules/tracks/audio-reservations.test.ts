import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { storageStats } from '../../../test/helpers/file-flow.ts';

const GIB = 1024 ** 3;
// A free team holds 5 GiB: two undeclared audio uploads of at most 2 GiB each fit, a third does not.
const ctx = useTestContext({ env: { MAX_AUDIO_BYTES: String(2 * GIB) } });

describe('audio upload URLs and the quota', () => {
  it('hold the most an audio file may weigh unless the size is announced, and lose no track on refusal', async () => {
    const team = await ctx.newTeam();
    const create = (title: string, size?: number) =>
      ctx.request({
        method: 'POST',
        url: '/api/v1/tracks',
        token: team.owner.token,
        payload: {
          title,
          team_id: team.id,
          audio_file_name: 'take.wav',
          ...(size ? { audio_file_size: size } : {}),
        },
      });
    expect((await create('One')).statusCode).toBe(201);
    expect((await create('Two')).statusCode).toBe(201);
    const refused = await create('Three');
    expect(refused.statusCode, refused.body).toBe(413);
    expect(refused.json().code).toBe('quota_exceeded');
    const announced = await create('Announced', 1000);
    expect(announced.statusCode, announced.body).toBe(201);

    const version = await ctx.request({
      method: 'POST',
      url: `/api/v1/tracks/${announced.json().id}/versions/create`,
      token: team.owner.token,
      payload: { audio_file_name: 'take-2.wav', audio_file_size: 2000 },
    });
    expect(version.statusCode, version.body).toBe(201);

    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/tracks?teamId=${team.id}`,
      token: team.owner.token,
    });
    expect(
      list
        .json()
        .items.map((t: { title: string }) => t.title)
        .sort(),
    ).toEqual(['Announced', 'One', 'Two']);
    expect((await storageStats(ctx, team)).reservedBytes).toBe(4 * GIB + 3000);
  });
});
