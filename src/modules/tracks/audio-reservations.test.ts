import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { storageStats } from '../../../test/helpers/file-flow.ts';

const GIB = 1024 ** 3;
// The defaults: a free team holds 5 GiB, an audio file weighs at most 1 GiB, 100 open uploads hold quota.
const ctx = useTestContext();

describe('audio upload URLs and the quota', () => {
  it('hold nothing until audio arrives: a new team creates 300 tracks before uploading any', async () => {
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
          ...(size !== undefined ? { audio_file_size: size } : {}),
        },
      });
    for (let n = 1; n <= 300; n += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, i) => create(`Track ${n + i}`)));
      for (const res of batch) expect(res.statusCode, res.body).toBe(201);
    }
    expect(await storageStats(ctx, team)).toMatchObject({
      usedBytes: 0,
      reservedBytes: 0,
      pendingUploads: 300,
    });

    // An announced size is still reserved up front, and refused when it does not fit.
    for (let n = 1; n <= 5; n++) expect((await create(`Announced ${n}`, GIB)).statusCode).toBe(201);
    const refused = await create('Too big', 1);
    expect(refused.statusCode, refused.body).toBe(413);
    expect(refused.json().code).toBe('quota_exceeded');
    expect((await storageStats(ctx, team)).reservedBytes).toBe(5 * GIB);

    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/tracks?teamId=${team.id}&limit=1&q=Too`,
      token: team.owner.token,
    });
    expect(list.json().items).toEqual([]);
  }, 300_000);
});
