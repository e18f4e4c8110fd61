import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { queryRows } from '../../../test/helpers/database.ts';
import { errors } from '../../shared/errors.ts';
import { DEFAULT_STATUS_CONFIG } from './default-status-config.ts';
import { registerStatusUsageProvider } from './status-usage.ts';

const ctx = useTestContext();

const patch = (team: TestTeam, token: string, body: unknown) =>
  ctx.request({
    method: 'PATCH',
    url: `/api/v1/teams/${team.id}/status-config`,
    token,
    payload: body as object,
  });

const getConfig = async (team: TestTeam) =>
  (
    await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
    })
  ).json();

const TRACKS = [
  { id: 'idea', name: 'Idea', color: '#ffcc00' },
  { id: 'done', name: 'Done' },
];

describe('team status configuration', () => {
  it('shows the default statuses to every member', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const res = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: member.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULT_STATUS_CONFIG);
  });

  it('replaces the lists given and keeps the others (owner or admin)', async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    expect((await patch(team, member.token, { patch: { tracks: TRACKS } })).statusCode).toBe(403);

    const res = await patch(team, admin.token, { patch: { tracks: TRACKS } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tracks: TRACKS, albums: DEFAULT_STATUS_CONFIG.albums });
    expect(await getConfig(team)).toEqual(res.json());

    const albums = [{ id: 'draft', name: 'Draft' }];
    const both = await patch(team, team.owner.token, { patch: { albums } });
    expect(both.json()).toEqual({ tracks: TRACKS, albums });
  });

  it('refuses invalid patches (400) and changes nothing', async () => {
    const team = await ctx.newTeam();
    const cases: [unknown, string?][] = [
      [{ patch: { tracks: [...TRACKS, { id: 'idea', name: 'Again' }] } }, '/body/patch/tracks/2/id'],
      [{ patch: { tracks: [] } }, '/body/patch/tracks'],
      [{ patch: { albums: [{ id: 'Bad-Id', name: 'x' }] } }, '/body/patch/albums/0/id'],
      [{ patch: { albums: [{ id: 'a'.repeat(41), name: 'x' }] } }, '/body/patch/albums/0/id'],
      [{ patch: { tracks: [{ id: 'ok', name: '' }] } }, '/body/patch/tracks/0/name'],
      [{ patch: { tracks: [{ id: 'ok', name: 'n'.repeat(61) }] } }, '/body/patch/tracks/0/name'],
      [{ patch: { tracks: [{ id: 'ok', name: 'Ok', color: 'red' }] } }, '/body/patch/tracks/0/color'],
      [{ patch: { tracks: [{ id: 'ok', name: 'Ok', order: 1 }] } }, '/body/patch/tracks/0/order'],
      [{ patch: {} }, '/body/patch'],
      [{}, '/body/patch'],
      [{ patch: { tracks: TRACKS, moves: { tracks: { idea: 'done' } } } }, '/body/patch/moves/tracks/idea'],
      [
        { patch: { tracks: TRACKS, moves: { tracks: { writing: 'mixing' } } } },
        '/body/patch/moves/tracks/writing',
      ],
      [{ patch: { tracks: TRACKS, moves: { albums: { planning: 'idea' } } } }, '/body/patch/moves/albums'],
      [{ patch: { tracks: Array.from({ length: 51 }, (_, i) => ({ id: `s${i}`, name: `S${i}` })) } }],
    ];
    for (const [body, path] of cases) {
      const res = await patch(team, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      if (path)
        expect(
          res.json().details.map((d: { path: string }) => d.path),
          JSON.stringify(body),
        ).toContain(path);
    }
    expect(await getConfig(team)).toEqual(DEFAULT_STATUS_CONFIG);
  });

  describe('with statuses in use', () => {
    let unregister: () => void = () => {};
    let failMovesTo: string | undefined;

    // A stand-in for the tracks and albums areas: items with a status in a scratch table.
    beforeAll(async () => {
      await ctx.database.db.execute(
        sql`create table scratch_status_items (team_id integer not null, kind text not null, status text not null)`,
      );
      unregister = registerStatusUsageProvider({
        inUse: async (db, teamId, kind, ids) => {
          const rows = await queryRows<{ status: string }>(
            db,
            sql`select distinct status from scratch_status_items
                where team_id = ${teamId} and kind = ${kind} and status in (${sql.join(
                  ids.map((id) => sql`${id}`),
                  sql`, `,
                )})`,
          );
          return rows.map((r) => r.status);
        },
        move: async (db, teamId, kind, from, to) => {
          await db.execute(
            sql`update scratch_status_items set status = ${to}
                where team_id = ${teamId} and kind = ${kind} and status = ${from}`,
          );
          if (to === failMovesTo) throw errors.conflict(`refusing moves to ${to}`);
        },
      });
    });
    afterAll(() => unregister());

    const statuses = async (team: TestTeam, kind: string) => {
      const rows = await queryRows<{ status: string }>(
        ctx.database.db,
        sql`select status from scratch_status_items where team_id = ${team.id} and kind = ${kind} order by status`,
      );
      return rows.map((r) => r.status);
    };

    const withItems = async () => {
      const team = await ctx.newTeam();
      await ctx.database.db.execute(
        sql`insert into scratch_status_items values
            (${team.id}, 'tracks', 'mixing'), (${team.id}, 'tracks', 'mixing'), (${team.id}, 'albums', 'mixing')`,
      );
      return team;
    };

    const withoutMixing = DEFAULT_STATUS_CONFIG.tracks.filter(
      (s) => s.id !== 'mixing' && s.id !== 'mastering',
    );

    it('refuses to drop a status in use without a target (409 naming it)', async () => {
      const team = await withItems();
      const res = await patch(team, team.owner.token, { patch: { tracks: withoutMixing } });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('conflict');
      expect(res.json().error).toContain('mixing');
      expect(res.json().error).not.toContain('mastering');
      expect(await getConfig(team)).toEqual(DEFAULT_STATUS_CONFIG);
    });

    it('moves the items of a removed status to its target, only in that list', async () => {
      const team = await withItems();
      const res = await patch(team, team.owner.token, {
        patch: { tracks: withoutMixing, moves: { tracks: { mixing: 'recording' } } },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().tracks).toEqual(withoutMixing);
      expect(await statuses(team, 'tracks')).toEqual(['recording', 'recording']);
      expect(await statuses(team, 'albums')).toEqual(['mixing']);
    });

    it('rolls the whole change back when a move fails', async () => {
      const team = await withItems();
      failMovesTo = 'writing';
      try {
        const res = await patch(team, team.owner.token, {
          patch: { tracks: withoutMixing, moves: { tracks: { mixing: 'writing' } } },
        });
        expect(res.statusCode).toBe(409);
      } finally {
        failMovesTo = undefined;
      }
      expect(await statuses(team, 'tracks')).toEqual(['mixing', 'mixing']);
      expect(await getConfig(team)).toEqual(DEFAULT_STATUS_CONFIG);
    });
  });
});
