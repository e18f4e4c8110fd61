import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { studioSessions } from '../../db/schema/index.ts';
import { sessionHelpers } from './sessions.test-support.ts';

const clock = new TestClock(Date.parse('2031-06-01T08:00:00.000Z'));
const ctx = useTestContext({ clock });
const { newSession, newOrganisation, eventsOf } = sessionHelpers(ctx);

const at = (time: string) => `2031-06-10T${time}:00.000Z`;
const post = (team: TestTeam, fields: object) =>
  ctx.request({
    method: 'POST',
    url: '/api/v1/sessions/',
    token: team.owner.token,
    payload: { teamId: team.id, title: 'Booking', ...fields },
  });
const patch = (team: TestTeam, id: number, fields: object) =>
  ctx.request({ method: 'PATCH', url: `/api/v1/sessions/${id}`, token: team.owner.token, payload: fields });

let team: TestTeam;
let roomA: number;
let roomB: number;

beforeAll(async () => {
  team = await ctx.newTeam();
  const org = await newOrganisation([team], 2);
  [roomA, roomB] = org.studioIds as [number, number];
});

async function bookingsOf(studioId: number): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`count(*)::integer` })
    .from(studioSessions)
    .where(and(eq(studioSessions.studioId, studioId), sql`${studioSessions.status} <> 'cancelled'`));
  return row!.n;
}

describe('studio bookings', () => {
  it('books [startsAt, endsAt): an overlap is 409, a session may start when the previous one ends', async () => {
    const first = await newSession(team, { studioId: roomA, startsAt: at('10:00'), endsAt: at('12:00') });
    for (const [startsAt, endsAt] of [
      [at('11:00'), at('13:00')],
      [at('09:00'), at('10:01')],
      [at('10:30'), at('11:00')],
      [at('09:00'), at('13:00')],
    ]) {
      const res = await post(team, { studioId: roomA, startsAt, endsAt });
      expect(res.statusCode, `${startsAt} ${endsAt}`).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'conflict',
        error: expect.stringContaining('already booked'),
      });
    }
    expect(await bookingsOf(roomA)).toBe(1);
    expect(
      (await post(team, { studioId: roomA, startsAt: at('12:00'), endsAt: at('13:00') })).statusCode,
    ).toBe(201);
    expect(
      (await post(team, { studioId: roomA, startsAt: at('08:00'), endsAt: at('10:00') })).statusCode,
    ).toBe(201);
    expect(
      (await post(team, { studioId: roomB, startsAt: at('10:00'), endsAt: at('12:00') })).statusCode,
    ).toBe(201);
    expect((await post(team, { startsAt: at('10:00'), endsAt: at('12:00') })).statusCode).toBe(201);

    // Cancelling frees the room; taking the cancellation back needs the room free again.
    expect((await patch(team, first.id, { status: 'cancelled' })).statusCode).toBe(200);
    const replacement = await post(team, { studioId: roomA, startsAt: at('10:30'), endsAt: at('11:30') });
    expect(replacement.statusCode).toBe(201);
    const back = await patch(team, first.id, { status: 'scheduled' });
    expect(back.statusCode).toBe(409);
    expect((await patch(team, replacement.json().id, { startsAt: at('09:59') })).statusCode).toBe(409);
    const unchanged = await ctx.request({
      method: 'GET',
      url: `/api/v1/sessions/${replacement.json().id}?teamId=${team.id}`,
      token: team.owner.token,
    });
    expect(unchanged.json().startsAt).toBe(at('10:30'));
  });

  it('lets exactly one of ten overlapping bookings sent at once win', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(team, { studioId: roomB, startsAt: `2031-06-11T1${i}:00:00Z`, endsAt: '2031-06-11T20:00:00Z' }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, ...Array(9).fill(409)]);
    const [row] = await ctx.database.db
      .select({ n: sql<number>`count(*)::integer` })
      .from(studioSessions)
      .where(and(eq(studioSessions.studioId, roomB), sql`${studioSessions.startsAt} >= '2031-06-11'`));
    expect(row!.n).toBe(1);
  });
});

describe('booking events', () => {
  it("tells the team and the studio's organisation when a booking is made, moved and cancelled", async () => {
    const eventTeam = await ctx.newTeam();
    const org = await newOrganisation([eventTeam], 2);
    const [room1, room2] = org.studioIds as [number, number];
    const owners = [{ teamId: eventTeam.id }, { organisationId: org.organisationId }];

    const booked = await newSession(eventTeam, { studioId: room1, startsAt: at('10:00') });
    clock.advance(1000);
    expect((await patch(eventTeam, booked.id, { title: 'Renamed', notes: 'n' })).statusCode).toBe(200);
    clock.advance(1000);
    expect((await patch(eventTeam, booked.id, { studioId: room2, endsAt: at('13:00') })).statusCode).toBe(
      200,
    );
    clock.advance(1000);
    expect((await patch(eventTeam, booked.id, { status: 'cancelled' })).statusCode).toBe(200);
    clock.advance(1000);
    expect((await patch(eventTeam, booked.id, { status: 'scheduled' })).statusCode).toBe(200);
    clock.advance(1000);
    expect((await patch(eventTeam, booked.id, { studioId: null })).statusCode).toBe(200);
    clock.advance(1000);
    const deleted = await newSession(eventTeam, { studioId: room1, startsAt: at('15:00') });
    clock.advance(1000);
    const del = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/sessions/${deleted.id}`,
      token: eventTeam.owner.token,
    });
    expect(del.statusCode).toBe(204);
    clock.advance(1000);
    await newSession(eventTeam, { startsAt: at('18:00') });

    for (const owner of owners) {
      const events = await eventsOf(owner);
      expect(events.map((e) => [e.type, e.data.id, e.data.studioId, e.data.status])).toEqual([
        ['booking.created', booked.id, room1, 'scheduled'],
        ['booking.updated', booked.id, room2, 'scheduled'],
        ['booking.cancelled', booked.id, room2, 'cancelled'],
        ['booking.created', booked.id, room2, 'scheduled'],
        ['booking.cancelled', booked.id, room2, 'cancelled'],
        ['booking.created', deleted.id, room1, 'scheduled'],
        ['booking.cancelled', deleted.id, room1, 'cancelled'],
      ]);
    }
    const [created] = await eventsOf({ organisationId: org.organisationId });
    expect(created!.data).toEqual({
      id: booked.id,
      teamId: eventTeam.id,
      organisationId: org.organisationId,
      studioId: room1,
      campId: null,
      title: 'Vocal tracking',
      startsAt: at('10:00'),
      endsAt: at('12:00'),
      status: 'scheduled',
      createdAt: booked.createdAt,
      updatedAt: booked.createdAt,
    });
    expect(created!.data).not.toHaveProperty('notes');
  });

  it('records no event for a session without a studio, nor for a refused booking', async () => {
    const quiet = await ctx.newTeam();
    const org = await newOrganisation([quiet]);
    await newSession(quiet, { startsAt: at('10:00') });
    await newSession(quiet, { studioId: org.studioIds[0], startsAt: at('10:00') });
    expect((await post(quiet, { studioId: org.studioIds[0], startsAt: at('11:00') })).statusCode).toBe(409);
    expect((await eventsOf({ teamId: quiet.id })).map((e) => e.type)).toEqual(['booking.created']);
    expect((await eventsOf({ organisationId: org.organisationId })).map((e) => e.type)).toEqual([
      'booking.created',
    ]);
  });

  it('lists the booking events in the webhook event catalogue', async () => {
    const res = await ctx.request({
      method: 'GET',
      url: '/api/v1/webhooks/event-types',
      token: team.owner.token,
    });
    const types = res.json().items;
    const booking = (types as { type: string; examplePayload: { data: object } }[]).filter((t) =>
      t.type.startsWith('booking.'),
    );
    expect(booking.map((t) => t.type)).toEqual(['booking.created', 'booking.updated', 'booking.cancelled']);
    for (const t of booking) expect(t.examplePayload.data).toHaveProperty('organisationId');
  });
});
