import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { type StudioSessionStatus, studioSessions } from '../../../db/schema/index.ts';
import { organisationHelpers, type TestOrganisation } from '../organisations.test-support.ts';

const ctx = useTestContext();
const { organisationWithTeam, newCamp } = organisationHelpers(ctx);

let org: TestOrganisation;
let team: TestTeam;
let guestTeam: TestTeam;
let teamMember: TestUser;
let studioId: number;
let camp: { id: number; slug: string };
const ids: Record<string, number> = {};

async function newSession(
  name: string,
  t: TestTeam,
  startsAt: string,
  extra: { studioId?: number; campId?: number; status?: StudioSessionStatus } = {},
) {
  const start = new Date(startsAt);
  const [row] = await ctx.database.db
    .insert(studioSessions)
    .values({
      teamId: t.id,
      title: name,
      startsAt: start,
      endsAt: new Date(start.getTime() + 3_600_000),
      ...extra,
    })
    .returning({ id: studioSessions.id });
  ids[name] = row!.id;
}

beforeAll(async () => {
  ({ organisation: org, team } = await organisationWithTeam());
  teamMember = await ctx.addMember(team, 'member');
  guestTeam = await ctx.newTeam();
  const { team: elsewhere } = await organisationWithTeam();
  const building = await ctx.request({
    method: 'POST',
    url: `/api/v1/organisations/${org.id}/buildings`,
    token: org.owner.token,
    payload: { name: 'House' },
  });
  const studio = await ctx.request({
    method: 'POST',
    url: `/api/v1/organisations/${org.id}/studios`,
    token: org.owner.token,
    payload: { buildingId: building.json().id, name: 'Room' },
  });
  studioId = studio.json().id;
  camp = await newCamp(org, { startsOn: '2030-03-01', endsOn: '2030-03-03' });

  await newSession('ours early', team, '2030-03-01T10:00:00Z', { campId: camp.id });
  await newSession('ours late night', team, '2030-03-01T23:30:00Z', { campId: camp.id });
  await newSession('ours next day', team, '2030-03-02T09:00:00Z', { status: 'live' });
  await newSession('guest in our studio', guestTeam, '2030-03-01T12:00:00Z', { studioId });
  await newSession('guest elsewhere', guestTeam, '2030-03-01T12:00:00Z');
  await newSession('other organisation', elsewhere, '2030-03-01T12:00:00Z');
  await newSession('cancelled', team, '2030-03-02T12:00:00Z', { campId: camp.id, status: 'cancelled' });
  await newSession('after the camp', team, '2030-03-05T12:00:00Z', { campId: camp.id });
});

const titles = (res: { json(): { items: { title: string }[] } }) => res.json().items.map((s) => s.title);

describe('GET /organisations/{id}/sessions', () => {
  const list = (query = '', token = teamMember.token) =>
    ctx.request({ method: 'GET', url: `/api/v1/organisations/${org.id}/sessions${query}`, token });

  it("lists the teams' sessions and bookings of its studios, soonest first, page by page", async () => {
    const first = await list('?limit=3');
    expect(first.statusCode).toBe(200);
    expect(titles(first)).toEqual(['ours early', 'guest in our studio', 'ours late night']);
    expect(first.json().items[1]).toMatchObject({
      id: ids['guest in our studio'],
      teamId: guestTeam.id,
      studioId,
    });
    const rest = await list(`?limit=3&cursor=${first.json().nextCursor}`);
    expect(titles(rest)).toEqual(['ours next day', 'cancelled', 'after the camp']);
    expect(rest.json().nextCursor).toBeNull();
  });

  it('filters by start time and status', async () => {
    expect(titles(await list('?from=2030-03-02T00:00:00Z&to=2030-03-05T00:00:00Z'))).toEqual([
      'ours next day',
      'cancelled',
    ]);
    expect(titles(await list('?status=live'))).toEqual(['ours next day']);
    for (const query of [
      '?from=2030-03-05T00:00:00Z&to=2030-03-01T00:00:00Z',
      '?from=yesterday',
      '?status=done',
      '?cursor=x',
    ]) {
      expect((await list(query)).statusCode, query).toBe(400);
    }
    expect((await list('', guestTeam.owner.token)).statusCode).toBe(404);
  });
});

describe('GET /camps/{camp}/week', () => {
  const week = (ref: string | number, query = '', token = teamMember.token) =>
    ctx.request({ method: 'GET', url: `/api/v1/camps/${ref}/week${query}`, token });
  const shape = (res: { json(): { days: { date: string; sessions: { title: string }[] }[] } }) =>
    res.json().days.map((d) => [d.date, d.sessions.map((s) => s.title)]);

  it("groups the camp's sessions by day, every camp day listed, cancelled ones left out", async () => {
    const res = await week(camp.slug);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      campId: camp.id,
      slug: camp.slug,
      startsOn: '2030-03-01',
      endsOn: '2030-03-03',
      timezone: 'UTC',
    });
    expect(shape(res)).toEqual([
      ['2030-03-01', ['ours early', 'ours late night']],
      ['2030-03-02', []],
      ['2030-03-03', []],
      ['2030-03-05', ['after the camp']],
    ]);
  });

  it('reads days in the time zone asked for', async () => {
    const res = await week(camp.id, '?timezone=Europe/Berlin');
    expect(res.json().timezone).toBe('Europe/Berlin');
    expect(shape(res).slice(0, 2)).toEqual([
      ['2030-03-01', ['ours early']],
      ['2030-03-02', ['ours late night']],
    ]);
    expect((await week(camp.id, '?timezone=Mars/Olympus')).statusCode).toBe(400);
    expect((await week(camp.id, '', guestTeam.owner.token)).statusCode).toBe(404);
    expect((await week('no-such-camp')).statusCode).toBe(404);
  });
});
