import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { tracks } from '../../db/schema/index.ts';
import { DEFAULT_STATUS_CONFIG } from '../teams/default-status-config.ts';

// On PGlite requests run one at a time; these tests bite on PostgreSQL, where they run at once.
const ctx = useTestContext();

const create = (team: TestTeam, title: string) =>
  ctx.request({
    method: 'POST',
    url: '/api/v1/tracks/',
    token: team.owner.token,
    payload: { title, team_id: team.id, audio_file_name: 'a.wav', audio_file_size: 1024 },
  });

async function positions(team: TestTeam, statusId: string) {
  const rows = await ctx.database.db
    .select({ position: tracks.position })
    .from(tracks)
    .where(and(eq(tracks.teamId, team.id), eq(tracks.statusId, statusId)))
    .orderBy(asc(tracks.position));
  return rows.map((r) => r.position);
}

describe('tracks under concurrent requests', () => {
  it('gives tracks created at once distinct positions at the end of the column', async () => {
    const team = await ctx.newTeam();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create(team, `Track ${i}`)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    expect(await positions(team, 'idea')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('never fails a track write racing a change of the status configuration that moves it', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team, { statusId: 'mixing' });
    const { tracks: statuses } = DEFAULT_STATUS_CONFIG;
    const without = statuses.filter((s) => s.id !== 'mixing');
    const configure = (list: typeof statuses, moves?: Record<string, string>) =>
      ctx.request({
        method: 'PATCH',
        url: `/api/v1/teams/${team.id}/status-config`,
        token: team.owner.token,
        payload: { patch: { tracks: list, ...(moves ? { moves: { tracks: moves } } : {}) } },
      });
    const patchTrack = (i: number) =>
      ctx.request({
        method: 'PATCH',
        url: `/api/v1/tracks/${track.id}`,
        token: team.owner.token,
        payload: { notes: `take ${i}` },
      });
    const results = await Promise.all([
      patchTrack(0),
      configure(without, { mixing: 'idea' }),
      patchTrack(1),
      patchTrack(2),
      configure(statuses),
      patchTrack(3),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
