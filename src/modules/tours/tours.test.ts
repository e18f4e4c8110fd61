import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { domainEvents } from '../../db/schema/index.ts';
import { MAX_TOUR_DATES } from './tours.schemas.ts';

const ctx = useTestContext();

const TOURS = '/api/v1/tours/';
const tourUrl = (id: number | string) => `/api/v1/tours/${id}`;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
  ctx.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

let team: TestTeam;
let member: TestUser;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
});

async function newTour(payload: object = {}, token = team.owner.token, teamId = team.id) {
  const res = await call('POST', TOURS, token, { teamId, name: 'Spring run', ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The events about the tour, in the order of the log. */
function eventsOf(tourId: number) {
  return ctx.database.db
    .select({ type: domainEvents.type, actorUserId: domainEvents.actorUserId })
    .from(domainEvents)
    .where(and(eq(domainEvents.subjectType, 'tour'), eq(domainEvents.subjectId, String(tourId))))
    .orderBy(asc(domainEvents.position));
}

const show = (date: string, extra: object = {}) => ({ date, city: 'Berlin', country: 'DE', ...extra });

describe('tours', () => {
  it('creates a tour in planning with empty defaults, and any member reads it', async () => {
    const tour = await newTour({ name: '  Spring run  ' }, member.token);
    expect(tour).toEqual({
      id: expect.any(Number),
      teamId: team.id,
      name: 'Spring run',
      status: 'planning',
      startsOn: null,
      endsOn: null,
      dates: [],
      notes: null,
      cover: null,
      createdAt: expect.any(String),
      updatedAt: tour.createdAt,
    });
    const read = await call('GET', tourUrl(tour.id), team.owner.token);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(tour);
    expect(await eventsOf(tour.id)).toEqual([{ type: 'tour.created', actorUserId: member.id }]);
  });

  it('keeps dates in date order, country codes in capitals, and derives the range from the dates', async () => {
    const tour = await newTour({
      status: 'announced',
      notes: 'Bring the merch',
      dates: [
        show('2031-05-03', { venue: ' Columbiahalle ', capacity: 3500, ticketUrl: 'https://t.example/b' }),
        { date: '2031-04-28', country: 'fr', city: 'Paris' },
        { date: '2031-05-03', city: 'Potsdam', country: 'de' },
      ],
    });
    expect(tour).toMatchObject({ status: 'announced', notes: 'Bring the merch', startsOn: '2031-04-28' });
    expect(tour.endsOn).toBe('2031-05-03');
    expect(tour.dates).toEqual([
      { date: '2031-04-28', city: 'Paris', country: 'FR', venue: null, capacity: null, ticketUrl: null },
      {
        date: '2031-05-03',
        city: 'Berlin',
        country: 'DE',
        venue: 'Columbiahalle',
        capacity: 3500,
        ticketUrl: 'https://t.example/b',
      },
      { date: '2031-05-03', city: 'Potsdam', country: 'DE', venue: null, capacity: null, ticketUrl: null },
    ]);
    // A range given wins over the dates.
    const given = await newTour({
      startsOn: '2031-04-01',
      endsOn: '2031-06-30',
      dates: [show('2031-05-01')],
    });
    expect(given).toMatchObject({ startsOn: '2031-04-01', endsOn: '2031-06-30' });
    const open = await newTour({ startsOn: '2031-04-01' });
    expect(open).toMatchObject({ startsOn: '2031-04-01', endsOn: null });
  });

  it('PUT replaces every editable field: what is left out returns to its default', async () => {
    const tour = await newTour({
      status: 'on_sale',
      notes: 'n',
      startsOn: '2031-01-01',
      dates: [show('2031-01-02')],
    });
    const full = await call('PUT', tourUrl(tour.id), member.token, {
      name: 'Summer run',
      status: 'completed',
      endsOn: '2031-08-31',
      dates: [show('2031-08-01', { capacity: 100 })],
      notes: 'done',
    });
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json()).toMatchObject({
      id: tour.id,
      teamId: team.id,
      name: 'Summer run',
      status: 'completed',
      startsOn: '2031-08-01',
      endsOn: '2031-08-31',
      dates: [{ date: '2031-08-01', capacity: 100 }],
      notes: 'done',
      createdAt: tour.createdAt,
    });
    expect(full.json().updatedAt >= tour.updatedAt).toBe(true);

    const bare = await call('PUT', tourUrl(tour.id), team.owner.token, { name: 'Bare' });
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toMatchObject({
      name: 'Bare',
      status: 'planning',
      startsOn: null,
      endsOn: null,
      dates: [],
      notes: null,
    });
    expect((await call('GET', tourUrl(tour.id), member.token)).json()).toEqual(bare.json());
    expect((await eventsOf(tour.id)).map((e) => e.type)).toEqual([
      'tour.created',
      'tour.updated',
      'tour.updated',
    ]);

    // name is required; the team and read-only fields cannot be written.
    for (const [payload, path] of [
      [{}, '/body/name'],
      [{ name: '   ' }, '/body/name'],
      [{ name: 'x', teamId: team.id }, '/body/teamId'],
      [{ name: 'x', id: tour.id }, '/body/id'],
      [{ name: 'x', cover: null }, '/body/cover'],
      [{ name: 'x', status: 'sold_out' }, '/body/status'],
      [{ name: 'x'.repeat(201) }, '/body/name'],
      [{ name: 'x', notes: 'x'.repeat(10_001) }, '/body/notes'],
    ] as const) {
      const res = await call('PUT', tourUrl(tour.id), team.owner.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await call('GET', tourUrl(tour.id), member.token)).json()).toEqual(bare.json());
  });

  it('validates dates and the range, naming every bad field, and changes nothing', async () => {
    const tour = await newTour({ dates: [show('2031-03-01')] });
    const cases: [object, string, string?][] = [
      [{ startsOn: '2031-05-02', endsOn: '2031-05-01' }, '/body/endsOn', 'must not be before startsOn'],
      [{ startsOn: '2031-06-01', dates: [show('2031-05-01')] }, '/body/startsOn', '2031-05-01'],
      [{ endsOn: '2031-04-01', dates: [show('2031-05-01')] }, '/body/endsOn', '2031-05-01'],
      [{ dates: [show('2031-05-01', { country: 'ZZ' })] }, '/body/dates/0/country', 'ISO 3166-1'],
      [{ dates: [show('2031-05-01', { country: 'DEU' })] }, '/body/dates/0/country'],
      [{ dates: [show('2031-05-01', { country: 'D1' })] }, '/body/dates/0/country'],
      [{ dates: [show('2031-05-01'), show('2031-05-02', { capacity: 0 })] }, '/body/dates/1/capacity'],
      [{ dates: [show('2031-05-01', { capacity: 2.5 })] }, '/body/dates/0/capacity'],
      [{ dates: [show('2031-05-01', { capacity: 10_000_001 })] }, '/body/dates/0/capacity'],
      [{ dates: [show('2031-05-01', { capacity: '100' })] }, '/body/dates/0/capacity'],
      [{ dates: [show('2031-05-01', { ticketUrl: 'ftp://t.example/x' })] }, '/body/dates/0/ticketUrl'],
      [{ dates: [show('2031-05-01', { ticketUrl: 'javascript:alert(1)' })] }, '/body/dates/0/ticketUrl'],
      [{ dates: [show('2031-05-01', { ticketUrl: 'https://' })] }, '/body/dates/0/ticketUrl'],
      [{ dates: [show('2031-05-01', { ticketUrl: 'http://[::1' })] }, '/body/dates/0/ticketUrl', 'http'],
      [{ dates: [show('2031-02-30')] }, '/body/dates/0/date'],
      [{ dates: [show('0000-01-01')] }, '/body/dates/0/date'],
      [{ dates: [{ city: 'Berlin' }] }, '/body/dates/0/date'],
      [{ dates: [show('2031-05-01', { stage: 'B' })] }, '/body/dates/0/stage'],
      [{ dates: [show('2031-05-01', { city: '' })] }, '/body/dates/0/city'],
      [{ dates: show('2031-05-01') }, '/body/dates'],
      [{ dates: Array.from({ length: MAX_TOUR_DATES + 1 }, () => show('2031-05-01')) }, '/body/dates'],
      [{ startsOn: '1 May 2031' }, '/body/startsOn'],
      [{ name: 'a\u0000b' }, '/body/name'],
    ];
    for (const [payload, path, message] of cases) {
      const res = await call('PUT', tourUrl(tour.id), team.owner.token, { name: 'Changed', ...payload });
      const label = JSON.stringify(payload).slice(0, 120);
      expect(res.statusCode, label).toBe(400);
      expect(res.json().code, label).toBe('validation_failed');
      const detail = res.json().details.find((d: { path: string }) => d.path === path);
      expect(detail, `${label}: ${res.body.slice(0, 300)}`).toBeDefined();
      if (message) expect(detail.message, label).toContain(message);
    }
    // Every problem at once.
    const many = await call('PUT', tourUrl(tour.id), team.owner.token, {
      name: 'x',
      dates: [show('2031-05-01', { country: 'QQ', ticketUrl: 'https://[bad' }), show('2031-05-02')],
      endsOn: '2031-04-01',
    });
    expect(
      many
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['/body/dates/0/country', '/body/dates/0/ticketUrl', '/body/endsOn']);
    // The same checks guard the create; nothing was made or changed.
    const created = await call('POST', TOURS, team.owner.token, {
      teamId: team.id,
      name: 'x',
      dates: [show('2031-05-01', { country: 'XX' })],
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().details[0].path).toBe('/body/dates/0/country');
    const after = (await call('GET', tourUrl(tour.id), team.owner.token)).json();
    expect(after).toMatchObject({ name: 'Spring run', startsOn: '2031-03-01', dates: [show('2031-03-01')] });
    // Kosovo, lower case and http are accepted.
    const accepted = await call('PUT', tourUrl(tour.id), team.owner.token, {
      name: 'Balkans',
      dates: [show('2031-05-01', { country: 'xk', ticketUrl: 'HTTP://tickets.example/x?y=1' })],
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().dates[0]).toMatchObject({
      country: 'XK',
      ticketUrl: 'HTTP://tickets.example/x?y=1',
    });
  });

  it('refuses bad creates: missing fields, unknown fields, and a team the caller is not in', async () => {
    const stranger = await ctx.newTeam();
    for (const [payload, status, path] of [
      [{ name: 'x' }, 400, '/body/teamId'],
      [{ teamId: team.id }, 400, '/body/name'],
      [{ teamId: team.id, name: 'x', team_id: team.id }, 400, '/body/team_id'],
      [{ teamId: team.id, name: 'x', cover: 1 }, 400, '/body/cover'],
      [{ teamId: 'abc', name: 'x' }, 400, '/body/teamId'],
      [{ teamId: stranger.id, name: 'x' }, 404, undefined],
      [{ teamId: 2_147_483_647, name: 'x' }, 404, undefined],
    ] as const) {
      const res = await call('POST', TOURS, team.owner.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      if (path) expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const listed = await call('GET', `${TOURS}?teamId=${stranger.id}`, stranger.owner.token);
    expect(listed.json()).toEqual({ items: [], nextCursor: null });
  });

  it('lists soonest first with undated tours last, in keyset pages, filtered by status and from', async () => {
    const own = await ctx.newTeam();
    const token = own.owner.token;
    const make = async (name: string, payload: object) =>
      (await newTour({ name, ...payload }, token, own.id)).id;
    const undated = await make('undated', {});
    const late = await make('late', { dates: [show('2032-09-01'), show('2032-09-05')], status: 'announced' });
    const early = await make('early', { startsOn: '2030-01-10', endsOn: '2030-02-01', status: 'completed' });
    const mid = await make('mid', { dates: [show('2031-06-01')], status: 'announced' });
    const sameStart = await make('same start', { startsOn: '2031-06-01', status: 'cancelled' });
    const undated2 = await make('undated 2', { status: 'announced' });

    const all = (await call('GET', `${TOURS}?teamId=${own.id}`, token)).json();
    expect(all.items.map((t: { id: number }) => t.id)).toEqual([
      early,
      mid,
      sameStart,
      late,
      undated,
      undated2,
    ]);
    expect(all.nextCursor).toBeNull();

    const seen: number[] = [];
    let url = `${TOURS}?teamId=${own.id}&limit=2`;
    for (;;) {
      const page = (await call('GET', url, token)).json();
      seen.push(...page.items.map((t: { id: number }) => t.id));
      if (!page.nextCursor) break;
      url = `${TOURS}?teamId=${own.id}&limit=2&cursor=${page.nextCursor}`;
    }
    expect(seen).toEqual([early, mid, sameStart, late, undated, undated2]);

    const ids = async (query: string) =>
      (await call('GET', `${TOURS}?teamId=${own.id}&${query}`, token))
        .json()
        .items.map((t: { id: number }) => t.id);
    expect(await ids('status=announced')).toEqual([mid, late, undated2]);
    expect(await ids('status=announced&limit=1')).toEqual([mid]);
    // Still running or ahead on 2031-06-01: ends (else starts) on or after it.
    expect(await ids('from=2031-06-01')).toEqual([mid, sameStart, late]);
    expect(await ids('from=2031-06-02&status=announced')).toEqual([late]);

    for (const query of [
      '',
      'teamId=abc',
      `teamId=${own.id}&status=sold`,
      `teamId=${own.id}&from=2031-13-01`,
    ]) {
      expect((await call('GET', `${TOURS}?${query}`, token)).statusCode, query).toBe(400);
    }
    for (const cursor of ['nope', Buffer.from('["2031-01-01"]').toString('base64url')]) {
      const res = await call('GET', `${TOURS}?teamId=${own.id}&cursor=${cursor}`, token);
      expect(res.statusCode, cursor).toBe(400);
    }
    // The caller must belong to the team: another member of the service sees nothing (404).
    expect((await call('GET', `${TOURS}?teamId=${own.id}`, team.owner.token)).statusCode).toBe(404);
  });

  it("deletes a tour (204); a deleted or another team's tour is 404 everywhere; ids are checked", async () => {
    const tour = await newTour();
    const stranger = await ctx.newUser();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, tourUrl(tour.id), stranger.token, payload);
      expect(res.statusCode, method).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      expect((await call('GET', tourUrl(id), team.owner.token)).statusCode, id).toBe(400);
    }
    const bodied = await call('DELETE', tourUrl(tour.id), team.owner.token, { mode: 'hard' });
    expect(bodied.statusCode).toBe(400);

    const removed = await call('DELETE', tourUrl(tour.id), member.token);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'again' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await call(method, tourUrl(tour.id), team.owner.token, payload)).statusCode, method).toBe(404);
    }
    expect((await eventsOf(tour.id)).map((e) => e.type)).toEqual(['tour.created', 'tour.deleted']);
  });
});
