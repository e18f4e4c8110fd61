import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../../test/helpers/context.ts';
import { tamper } from '../../../../test/helpers/file-flow.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { callWith, registerVersionAudio, versionsBase } from '../../../../test/helpers/version-uploads.ts';
import { PLAY_REPEAT_SECONDS } from '../play-marks.ts';

const ctx = useStorageTestContext('local');
const call = callWith(ctx);

/** A team whose owner has a name, and a track with a version whose audio is registered. */
async function setUp() {
  const owner = await ctx.newUser({ name: 'Ada' });
  const team = await ctx.newTeam(owner);
  const track = await ctx.newTrack(team);
  const version = await registerVersionAudio(ctx, team, track);
  const base = `${versionsBase(track)}/${version.id}`;
  const detail = (token: string) => call('GET', `${base}/detail`, token);
  const plays = async (token = team.owner.token, query = '') => {
    const res = await call('GET', `${base}/plays${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: Record<string, unknown>[]; nextCursor: string | null };
  };
  return { team, track, version, base, detail, plays };
}

const later = () => ctx.clock.advance((PLAY_REPEAT_SECONDS + 1) * 1000);

describe('plays of a version', () => {
  it('records a play when the stream URL of the detail is fetched, with who played it', async () => {
    const { team, version, detail, plays } = await setUp();
    const read = await detail(team.owner.token);
    expect(read.statusCode).toBe(200);
    expect((await plays()).items).toEqual([]);
    const stream = await ctx.fetchUrl(read.json().audio.url);
    expect(stream.status).toBe(200);
    expect(stream.body.length).toBe(read.json().audio.size);
    const listed = await plays();
    expect(listed).toEqual({
      items: [
        {
          id: expect.any(Number),
          versionId: version.id,
          playedAt: ctx.clock.now().toISOString(),
          userId: team.owner.id,
          userName: 'Ada',
          keyId: null,
        },
      ],
      nextCursor: null,
    });
    expect((await detail(team.owner.token)).json().counts.plays).toBe(1);
  });

  it('counts a fetch from the first byte once; seeking, saving, HEAD and bad URLs are not plays', async () => {
    const { team, detail, plays } = await setUp();
    const { url, downloadUrl } = (await detail(team.owner.token)).json().audio;
    expect((await ctx.fetchUrl(url, { headers: { range: 'bytes=0-1' } })).status).toBe(206);
    expect((await ctx.fetchUrl(url, { headers: { range: 'bytes=0-' } })).status).toBe(206);
    expect((await plays()).items).toHaveLength(1);

    later();
    expect((await ctx.fetchUrl(url, { headers: { range: 'bytes=100-' } })).status).toBe(206);
    expect((await ctx.fetchUrl(url, { method: 'HEAD' })).status).toBe(200);
    expect((await ctx.fetchUrl(downloadUrl)).status).toBe(200);
    expect((await ctx.fetchUrl(tamper(url))).status).toBe(403);
    expect((await plays()).items).toHaveLength(1);

    expect((await ctx.fetchUrl(url)).status).toBe(200);
    expect((await plays()).items).toHaveLength(2);
  });

  it('records the API key that read the detail, and lists plays newest first in pages', async () => {
    const { team, detail, plays } = await setUp();
    const key = await ctx.newApiKey(team);
    const keyId = (await call('GET', `/api/v1/teams/${team.id}/api-keys`, team.owner.token)).json().items[0]
      .id as number;
    const byKey = (await detail(key)).json().audio.url;
    const byOwner = (await detail(team.owner.token)).json().audio.url;
    await ctx.fetchUrl(byOwner);
    later();
    await ctx.fetchUrl(byKey);
    later();
    await ctx.fetchUrl(byOwner);

    const all = await plays(key);
    expect(all.items.map((p) => [p.userId, p.keyId])).toEqual([
      [team.owner.id, null],
      [null, keyId],
      [team.owner.id, null],
    ]);
    expect(all.items[1]).toMatchObject({ userName: null });
    const first = await plays(team.owner.token, '?limit=2');
    expect(first.items.map((p) => p.id)).toEqual(all.items.slice(0, 2).map((p) => p.id));
    const second = await plays(team.owner.token, `?limit=2&cursor=${first.nextCursor}`);
    expect(second).toEqual({ items: [all.items[2]], nextCursor: null });
  });

  it('keeps plays apart per version and hides them from other teams', async () => {
    const { team, track, base, detail, plays } = await setUp();
    const other = await ctx.newVersion(track);
    await ctx.fetchUrl((await detail(team.owner.token)).json().audio.url);
    const otherPlays = await call('GET', `${versionsBase(track)}/${other.id}/plays`, team.owner.token);
    expect(otherPlays.json().items).toEqual([]);
    expect((await plays()).items).toHaveLength(1);
    const outsider = await ctx.newTeam();
    expect((await call('GET', `${base}/plays`, outsider.owner.token)).statusCode).toBe(404);
    expect((await call('GET', `${base}/plays?limit=0`, team.owner.token)).statusCode).toBe(400);
    expect((await call('GET', `${base}/plays?cursor=nonsense`, team.owner.token)).statusCode).toBe(400);
  });

  it('stops serving the stream URL of a deleted version', async () => {
    const { team, track, version, detail } = await setUp();
    const url = (await detail(team.owner.token)).json().audio.url;
    expect((await call('DELETE', `${versionsBase(track)}/${version.id}`, team.owner.token)).statusCode).toBe(
      204,
    );
    expect((await ctx.fetchUrl(url)).status).toBe(404);
  });
});

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/versions/{versionId}/plays',
    shareLevel: 'read',
    build: async (team: TestTeam) => {
      const track = await ctx.newTrack(team);
      return { url: `${versionsBase(track)}/${track.versionId}/plays` };
    },
  },
];

describeSecurityMatrix(ctx, cases);
