import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { tracks } from '../../../db/schema/index.ts';
import { organisationHelpers, type TestOrganisation } from '../organisations.test-support.ts';

const ctx = useTestContext();
const { organisationWithTeam, addOrganisationMember, newCamp, logOf } = organisationHelpers(ctx);

let org: TestOrganisation;
let team: TestTeam;
let writer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  ({ organisation: org, team } = await organisationWithTeam());
  writer = await ctx.addMember(team, 'member');
  admin = await addOrganisationMember(org, 'admin');
});

const queueUrl = (ref: string | number, suffix = '') => `/api/v1/camps/${ref}/listening${suffix}`;
const submit = (ref: string | number, trackId: number, token = writer.token) =>
  ctx.request({ method: 'POST', url: queueUrl(ref), token, payload: { trackId } });
const idsOf = (res: { json(): { items: { id: number }[] } }) => res.json().items.map((i) => i.id);

describe('the listening queue', () => {
  it("takes tracks of the caller's teams at its end and lists them in order, by id or slug", async () => {
    const camp = await newCamp(org);
    const [t1, t2] = [
      await ctx.newTrack(team, { title: 'First' }),
      await ctx.newTrack(team, { title: 'Second' }),
    ];
    const first = await submit(camp.slug, t1.id);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      campId: camp.id,
      position: 0,
      track: { id: t1.id, title: 'First', teamId: team.id, teamName: team.name },
      submittedBy: writer.id,
      playedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const second = await submit(camp.id, t2.id);
    expect(second.json().position).toBe(1);
    expect((await submit(camp.id, t1.id)).statusCode).toBe(409);
    const page = await ctx.request({
      method: 'GET',
      url: queueUrl(camp.slug, '?limit=1'),
      token: org.owner.token,
    });
    expect(idsOf(page)).toEqual([first.json().id]);
    const rest = await ctx.request({
      method: 'GET',
      url: queueUrl(camp.slug, `?limit=1&cursor=${page.json().nextCursor}`),
      token: org.owner.token,
    });
    expect(rest.json()).toEqual({ items: [second.json()], nextCursor: null });
    expect(await logOf({ teamId: team.id }, 'camp.listening_submitted')).toHaveLength(2);
  });

  it("refuses other teams' tracks, tracks only shared with the caller's team, and bad bodies", async () => {
    const camp = await newCamp(org);
    const other = await ctx.newTeam();
    const foreign = await ctx.newTrack(other);
    expect((await submit(camp.id, foreign.id)).statusCode).toBe(404);
    const sister = await ctx.newTeam(team.owner);
    const shared = await ctx.newTrack({ ...sister, shareWith: [team.id] });
    const refused = await submit(camp.id, shared.id);
    expect(refused.statusCode).toBe(403);
    for (const payload of [{}, { trackId: 0 }, { trackId: '1' }, { trackId: 1, note: 'x' }]) {
      const res = await ctx.request({ method: 'POST', url: queueUrl(camp.id), token: writer.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    // Someone outside the organisation cannot submit even their own track.
    expect((await submit(camp.id, foreign.id, other.owner.token)).statusCode).toBe(404);
    const empty = await ctx.request({ method: 'GET', url: queueUrl(camp.id), token: writer.token });
    expect(empty.json()).toEqual({ items: [], nextCursor: null });
  });

  it('is reordered and played by managers of the organisation', async () => {
    const camp = await newCamp(org);
    const items = [];
    for (let i = 0; i < 3; i++) items.push((await submit(camp.id, (await ctx.newTrack(team)).id)).json());
    const [a, b, c] = items.map((i) => i.id);
    const reorder = (itemIds: unknown, token = admin.token) =>
      ctx.request({ method: 'PUT', url: queueUrl(camp.id, '/order'), token, payload: { itemIds } });
    expect((await reorder([c, a, b], writer.token)).statusCode).toBe(403);
    expect((await reorder([c, a])).statusCode).toBe(409);
    expect((await reorder([c, a, b, 999999])).statusCode).toBe(409);
    expect((await reorder([c, a, a])).statusCode).toBe(400);
    const done = await reorder([c, a, b]);
    expect(done.statusCode).toBe(200);
    expect(done.json().items.map((i: { id: number; position: number }) => [i.id, i.position])).toEqual([
      [c, 0],
      [a, 1],
      [b, 2],
    ]);
    expect(done.json().nextCursor).toBeNull();

    const play = (itemId: number, played: boolean, token = admin.token) =>
      ctx.request({ method: 'PATCH', url: queueUrl(camp.slug, `/${itemId}`), token, payload: { played } });
    expect((await play(c, true, writer.token)).statusCode).toBe(403);
    const played = await play(c, true);
    expect(played.json()).toMatchObject({ id: c, playedAt: expect.any(String), position: 0 });
    expect((await play(c, false)).json().playedAt).toBeNull();
    expect((await play(999999, true)).statusCode).toBe(404);
    expect(
      (await logOf({ teamId: team.id }, 'camp.listening_played')).map(
        (e) => (e.payload as { played: boolean }).played,
      ),
    ).toEqual([true, false]);
  });

  it('loses a submission to its submitter, managers of its team or of the organisation', async () => {
    const camp = await newCamp(org);
    const colleague = await ctx.addMember(team, 'member');
    const teamAdmin = await ctx.addMember(team, 'admin');
    const items = [];
    for (let i = 0; i < 3; i++) items.push((await submit(camp.id, (await ctx.newTrack(team)).id)).json().id);
    const withdraw = (itemId: number, token: string) =>
      ctx.request({ method: 'DELETE', url: queueUrl(camp.id, `/${itemId}`), token });
    expect((await withdraw(items[0], colleague.token)).statusCode).toBe(403);
    expect((await withdraw(items[0], writer.token)).statusCode).toBe(204);
    expect((await withdraw(items[0], writer.token)).statusCode).toBe(404);
    expect((await withdraw(items[1], teamAdmin.token)).statusCode).toBe(204);
    expect((await withdraw(items[2], admin.token)).statusCode).toBe(204);
    expect(await logOf({ teamId: team.id }, 'camp.listening_withdrawn')).toHaveLength(3);
  });

  it('leaves out deleted tracks and holds at most 200 tracks', async () => {
    const camp = await newCamp(org);
    const gone = await ctx.newTrack(team);
    await submit(camp.id, gone.id);
    await ctx.database.db.update(tracks).set({ deletedAt: new Date() }).where(eq(tracks.id, gone.id));
    const list = await ctx.request({ method: 'GET', url: queueUrl(camp.id), token: writer.token });
    expect(list.json().items).toEqual([]);
    // The queue can still be ordered without the item nobody sees.
    const kept = (await submit(camp.id, (await ctx.newTrack(team)).id)).json();
    const reordered = await ctx.request({
      method: 'PUT',
      url: queueUrl(camp.id, '/order'),
      token: admin.token,
      payload: { itemIds: [kept.id] },
    });
    expect(reordered.json().items.map((i: { id: number }) => i.id)).toEqual([kept.id]);
    await ctx.database.db.execute(sql`
      with made as (
        insert into tracks (team_id, status_id, position, title)
        select ${team.id}, 'idea', 1000 + g, 'Bulk ' || g from generate_series(1, 198) g returning id)
      insert into camp_listening_items (camp_id, track_id, team_id, position)
      select ${camp.id}, id, ${team.id}, row_number() over (order by id) from made`);
    const full = await submit(camp.id, (await ctx.newTrack(team)).id);
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toContain('200');
  });
});
