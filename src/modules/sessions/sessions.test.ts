import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { studioSessions } from '../../db/schema/index.ts';
import { sessionHelpers } from './sessions.test-support.ts';

const NOW = Date.parse('2031-06-01T12:00:00.000Z');
const clock = new TestClock(NOW);
const ctx = useTestContext({ clock });
const { newSession, newOrganisation, activityOf } = sessionHelpers(ctx);

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });
const at = (iso: string) => `2031-06-01T${iso}:00.000Z`;

let team: TestTeam;
let member: TestUser;
let outsider: TestUser;
let other: TestTeam;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
  outsider = await ctx.newUser();
  other = await ctx.newTeam(outsider);
});

async function sessionCount(teamId: number): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`count(*)::integer` })
    .from(studioSessions)
    .where(eq(studioSessions.teamId, teamId));
  return row!.n;
}

describe('create', () => {
  it('creates a scheduled session of two hours by default, and records its activity', async () => {
    const res = await call('POST', '/api/v1/sessions/', member.token, {
      teamId: team.id,
      title: '  Drum day ',
      startsAt: '2031-06-02T09:00:00+02:00',
      notes: 'Bring sticks',
    });
    expect(res.statusCode, res.body).toBe(201);
    const session = res.json();
    expect(session).toEqual({
      id: expect.any(Number),
      teamId: team.id,
      title: 'Drum day',
      startsAt: '2031-06-02T07:00:00.000Z',
      endsAt: '2031-06-02T09:00:00.000Z',
      studioId: null,
      campId: null,
      status: 'scheduled',
      notes: 'Bring sticks',
      createdBy: member.id,
      createdAt: new Date(NOW).toISOString(),
      updatedAt: new Date(NOW).toISOString(),
    });
    expect(await activityOf(session.id)).toEqual([{ action: 'session.created', data: {} }]);
    const read = await call('GET', `/api/v1/sessions/${session.id}?teamId=${team.id}`, team.owner.token);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(session);
  });

  it('refuses bad input with 400 naming the field, and creates nothing', async () => {
    const before = await sessionCount(team.id);
    const cases: [object, string][] = [
      [{ title: 'x', startsAt: at('10:00'), endsAt: at('10:00') }, '/body/endsAt'],
      [{ title: 'x', startsAt: at('10:00'), endsAt: at('09:00') }, '/body/endsAt'],
      [{ title: ' ', startsAt: at('10:00') }, '/body/title'],
      [{ title: 'x'.repeat(201), startsAt: at('10:00') }, '/body/title'],
      [{ title: 'x', startsAt: 'tomorrow' }, '/body/startsAt'],
      [{ title: 'x', startsAt: '0000-01-01T00:00:00Z' }, '/body/startsAt'],
      [{ title: 'x\u0000y', startsAt: at('10:00') }, '/body/title'],
      [{ title: 'x', startsAt: at('10:00'), colour: 'red' }, '/body/colour'],
      [{ title: 'x', startsAt: at('10:00'), studioId: 'one' }, '/body/studioId'],
    ];
    for (const [fields, path] of cases) {
      const res = await call('POST', '/api/v1/sessions/', team.owner.token, { teamId: team.id, ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await sessionCount(team.id)).toBe(before);
  });

  it("answers 404 for a team the caller is not in, and for a studio or camp outside the team's organisation", async () => {
    const res = await call('POST', '/api/v1/sessions/', outsider.token, {
      teamId: team.id,
      title: 'x',
      startsAt: at('10:00'),
    });
    expect(res.statusCode).toBe(404);
    const foreign = await newOrganisation([other]);
    const own = await newOrganisation([team]);
    for (const [field, id, what] of [
      ['studioId', foreign.studioIds[0], 'Studio'],
      ['campId', foreign.campId, 'Camp'],
      ['studioId', 2_000_000_000, 'Studio'],
    ] as const) {
      const refused = await call('POST', '/api/v1/sessions/', team.owner.token, {
        teamId: team.id,
        title: 'x',
        startsAt: at('10:00'),
        [field]: id,
      });
      expect(refused.statusCode, refused.body).toBe(404);
      expect(refused.json().error).toContain(what);
    }
    const booked = await newSession(team, { studioId: own.studioIds[0], campId: own.campId });
    expect(booked).toMatchObject({ studioId: own.studioIds[0], campId: own.campId });
  });
});

describe('read', () => {
  it('answers 404 to outsiders, for another team in teamId, and 400 for a non-numeric id', async () => {
    const session = await newSession(team);
    const url = `/api/v1/sessions/${session.id}`;
    expect((await call('GET', `${url}?teamId=${team.id}`, outsider.token)).statusCode).toBe(404);
    expect((await call('GET', `${url}?teamId=${other.id}`, outsider.token)).statusCode).toBe(404);
    const ownTeamOfOwner = await ctx.newTeam(team.owner);
    expect((await call('GET', `${url}?teamId=${ownTeamOfOwner.id}`, team.owner.token)).statusCode).toBe(404);
    // teamId may be left out: the session names its team.
    expect((await call('GET', url, team.owner.token)).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/sessions/abc?teamId=${team.id}`, team.owner.token)).statusCode).toBe(
      400,
    );
    expect(
      (await call('GET', `/api/v1/sessions/99999999?teamId=${team.id}`, team.owner.token)).statusCode,
    ).toBe(404);
  });
});

describe('lists', () => {
  let listTeam: TestTeam;
  let second: TestTeam;
  let user: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    listTeam = await ctx.newTeam();
    user = listTeam.owner;
    second = await ctx.newTeam(user);
    ids.past = (await newSession(listTeam, { title: 'past', startsAt: '2031-05-30T10:00:00Z' })).id;
    ids.running = (await newSession(listTeam, { title: 'running', startsAt: at('11:00') })).id;
    ids.soon = (await newSession(listTeam, { title: 'soon', startsAt: at('14:00') })).id;
    ids.later = (await newSession(second, { title: 'later', startsAt: '2031-06-05T10:00:00Z' })).id;
    ids.live = (await newSession(second, { title: 'live overrun', startsAt: '2031-06-01T06:00:00Z' })).id;
    await call('PATCH', `/api/v1/sessions/${ids.live}`, user.token, { status: 'live' });
    ids.cancelled = (await newSession(listTeam, { title: 'cancelled', startsAt: at('11:30') })).id;
    await call('PATCH', `/api/v1/sessions/${ids.cancelled}`, user.token, { status: 'cancelled' });
  });

  const titles = (res: { json(): { items: { title: string }[] } }) => res.json().items.map((s) => s.title);

  it("lists one team's sessions, latest start first, in keyset pages", async () => {
    const first = await call('GET', `/api/v1/sessions/?teamId=${listTeam.id}&limit=2`, user.token);
    expect(first.statusCode).toBe(200);
    expect(titles(first)).toEqual(['soon', 'cancelled']);
    const next = await call(
      'GET',
      `/api/v1/sessions/?teamId=${listTeam.id}&limit=2&cursor=${first.json().nextCursor}`,
      user.token,
    );
    expect(titles(next)).toEqual(['running', 'past']);
    expect(next.json().nextCursor).toBeNull();
  });

  it('lists every team of the caller without teamId, and filters by time and status', async () => {
    const all = await call('GET', '/api/v1/sessions/', user.token);
    expect(titles(all)).toEqual(['later', 'soon', 'cancelled', 'running', 'live overrun', 'past']);
    const window = await call(
      'GET',
      `/api/v1/sessions/?from=${at('11:00')}&to=${at('14:00')}&status=scheduled`,
      user.token,
    );
    expect(titles(window)).toEqual(['running']);
    const backwards = await call(
      'GET',
      `/api/v1/sessions/?from=${at('14:00')}&to=${at('11:00')}`,
      user.token,
    );
    expect(backwards.statusCode).toBe(400);
    expect((await call('GET', `/api/v1/sessions/?teamId=${listTeam.id}`, outsider.token)).statusCode).toBe(
      404,
    );
    expect(titles(await call('GET', '/api/v1/sessions/', outsider.token))).not.toContain('soon');
    expect((await call('GET', '/api/v1/sessions/?limit=0', user.token)).statusCode).toBe(400);
    expect((await call('GET', '/api/v1/sessions/?cursor=nonsense', user.token)).statusCode).toBe(400);
  });

  it('answers the sessions running now: live ones, and scheduled ones whose time has come', async () => {
    const live = await call('GET', '/api/v1/sessions/live', user.token);
    expect(live.statusCode).toBe(200);
    expect(titles(live)).toEqual(['live overrun', 'running']);
    expect(titles(await call('GET', '/api/v1/sessions/live', outsider.token))).toEqual([]);
  });

  it("answers the team's next scheduled sessions, soonest first", async () => {
    const res = await call('GET', `/api/v1/sessions/upcoming?teamId=${listTeam.id}`, user.token);
    expect(titles(res)).toEqual(['soon']);
    const both = await call('GET', `/api/v1/sessions/upcoming?teamId=${second.id}`, user.token);
    expect(titles(both)).toEqual(['later']);
    expect(
      (await call('GET', `/api/v1/sessions/upcoming?teamId=${second.id}`, outsider.token)).statusCode,
    ).toBe(404);
    expect((await call('GET', '/api/v1/sessions/upcoming', user.token)).statusCode).toBe(400);
  });
});

describe('change and delete', () => {
  it('changes the given fields, keeps endsAt after startsAt, and records what changed', async () => {
    const session = await newSession(team);
    const url = `/api/v1/sessions/${session.id}`;
    clock.advance(1000);
    const res = await call('PATCH', url, member.token, {
      teamId: team.id,
      title: 'Mixing',
      endsAt: '2031-06-01T15:00:00Z',
      notes: null,
      status: 'live',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'Mixing',
      startsAt: '2031-06-01T10:00:00.000Z',
      endsAt: '2031-06-01T15:00:00.000Z',
      status: 'live',
      notes: null,
      updatedAt: new Date(NOW + 1000).toISOString(),
    });
    const late = await call('PATCH', url, member.token, { startsAt: '2031-06-01T16:00:00Z' });
    expect(late.statusCode).toBe(400);
    expect(late.json().details[0].path).toBe('/body/startsAt');
    for (const body of [{}, { teamId: team.id }, { status: 'paused' }, { title: 'x', id: 3 }]) {
      expect((await call('PATCH', url, member.token, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PATCH', url, member.token, { teamId: other.id, title: 'y' })).statusCode).toBe(404);
    expect((await call('PATCH', url, outsider.token, { title: 'y' })).statusCode).toBe(404);
    const unchanged = await call('GET', `${url}?teamId=${team.id}`, member.token);
    expect(unchanged.json().title).toBe('Mixing');
    expect((await activityOf(session.id)).map((a) => a.action)).toEqual([
      'session.created',
      'session.updated',
    ]);
    expect((await activityOf(session.id))[1]!.data).toEqual({
      fields: ['title', 'endsAt', 'notes', 'status'],
    });
  });

  it('deletes a session (204), then it is gone; outsiders and other teams get 404', async () => {
    const session = await newSession(team);
    const url = `/api/v1/sessions/${session.id}`;
    expect((await call('DELETE', url, outsider.token)).statusCode).toBe(404);
    expect((await call('DELETE', `${url}?teamId=${other.id}`, team.owner.token)).statusCode).toBe(404);
    const res = await call('DELETE', `${url}?teamId=${team.id}`, member.token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await call('GET', `${url}?teamId=${team.id}`, member.token)).statusCode).toBe(404);
    expect((await call('DELETE', url, member.token)).statusCode).toBe(404);
    expect((await activityOf(session.id)).map((a) => a.action)).toEqual([
      'session.created',
      'session.deleted',
    ]);
  });
});
