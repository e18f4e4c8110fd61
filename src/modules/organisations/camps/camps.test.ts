import { and, asc, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { camps, domainEvents } from '../../../db/schema/index.ts';
import { organisationHelpers, type TestOrganisation } from '../organisations.test-support.ts';

const clock = new TestClock(Date.parse('2030-06-10T12:00:00Z'));
const ctx = useTestContext({ clock });
const { organisationWithTeam, addOrganisationMember, newCamp, logOf } = organisationHelpers(ctx);

let org: TestOrganisation;
let team: TestTeam;
let teamMember: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  ({ organisation: org, team } = await organisationWithTeam());
  teamMember = await ctx.addMember(team, 'member');
  outsider = await ctx.newUser();
});

const campsUrl = (o: TestOrganisation, suffix = '') => `/api/v1/organisations/${o.id}/camps${suffix}`;
const create = (payload: object, token = org.owner.token) =>
  ctx.request({ method: 'POST', url: campsUrl(org), token, payload });
const rsvp = (campId: number, status: string, token = teamMember.token, o = org) =>
  ctx.request({ method: 'POST', url: campsUrl(o, `/${campId}/rsvp`), token, payload: { status } });

describe('creating camps (extension)', () => {
  it('makes a slug from the name, unique across the service and never only digits', async () => {
    const first = await create({ name: 'Summer Writing Camp', startsOn: '2030-07-01', endsOn: '2030-07-05' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      organisationId: org.id,
      name: 'Summer Writing Camp',
      slug: 'summer-writing-camp',
      startsOn: '2030-07-01',
      endsOn: '2030-07-05',
      location: null,
      myRsvp: null,
      rsvpCounts: { accepted: 0, declined: 0, maybe: 0 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const second = await create({
      name: 'Summer writing camp!',
      startsOn: '2030-08-01',
      endsOn: '2030-08-01',
    });
    expect(second.json().slug).toBe('summer-writing-camp-2');
    const digits = await create({ name: '2031', startsOn: '2031-01-01', endsOn: '2031-01-02' });
    expect(digits.json().slug).toBe('camp-2031');
    const emoji = await create({ name: '🎸🎸', startsOn: '2031-01-01', endsOn: '2031-01-02' });
    expect(emoji.json().slug).toMatch(/^camp(-\d+)?$/);
    expect(await logOf({ organisationId: org.id }, 'camp.created')).toHaveLength(4);
  });

  it('takes a chosen slug, refusing a taken one (409) or one of digits only (400)', async () => {
    const chosen = await create({
      name: 'Winter',
      slug: 'winter-30',
      startsOn: '2030-12-01',
      endsOn: '2030-12-03',
      location: 'Oslo',
    });
    expect(chosen.json()).toMatchObject({ slug: 'winter-30', location: 'Oslo' });
    const taken = await create({
      name: 'Other',
      slug: 'winter-30',
      startsOn: '2030-12-01',
      endsOn: '2030-12-03',
    });
    expect(taken.statusCode).toBe(409);
    const before = (await ctx.database.db.select({ n: count() }).from(camps))[0]!.n;
    for (const payload of [
      { name: 'D', slug: '12345', startsOn: '2030-12-01', endsOn: '2030-12-03' },
      { name: 'D', slug: 'Bad Slug', startsOn: '2030-12-01', endsOn: '2030-12-03' },
      { name: 'D', startsOn: '2030-12-03', endsOn: '2030-12-01' },
      { name: 'D', startsOn: '2030-02-30', endsOn: '2030-12-01' },
      { name: 'D', startsOn: '2030-12-01' },
      { name: 'D', startsOn: '2030-12-01', endsOn: '2030-12-01', capacity: 3 },
    ]) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await ctx.database.db.select({ n: count() }).from(camps))[0]!.n).toBe(before);
    const asTeamMember = await create(
      { name: 'No', startsOn: '2030-12-01', endsOn: '2030-12-01' },
      teamMember.token,
    );
    expect(asTeamMember.statusCode).toBe(403);
  });
});

describe('listing camps', () => {
  it('lists upcoming camps first (running ones included), then past ones, most recent first', async () => {
    const { organisation } = await organisationWithTeam(org.owner);
    const mk = (name: string, startsOn: string, endsOn: string) =>
      newCamp(organisation, { name, startsOn, endsOn }).then((c) => c.id);
    const past = await mk('Past', '2030-05-01', '2030-05-03');
    const older = await mk('Older', '2029-05-01', '2029-05-03');
    const later = await mk('Later', '2030-09-01', '2030-09-03');
    const running = await mk('Running', '2030-06-08', '2030-06-12');
    const first = await ctx.request({
      method: 'GET',
      url: campsUrl(organisation, '?limit=3'),
      token: org.owner.token,
    });
    expect(first.json().items.map((c: { id: number }) => c.id)).toEqual([running, later, past]);
    const rest = await ctx.request({
      method: 'GET',
      url: campsUrl(organisation, `?limit=3&cursor=${first.json().nextCursor}`),
      token: org.owner.token,
    });
    expect(rest.json()).toEqual({
      items: [expect.objectContaining({ id: older, myRsvp: null })],
      nextCursor: null,
    });
  });

  it('GET /camps lists the camps of every organisation the caller reads, with their answers', async () => {
    const { organisation: mine } = await organisationWithTeam();
    const camp = await newCamp(mine, { startsOn: '2030-06-11', endsOn: '2030-06-11' });
    await rsvp(camp.id, 'maybe', mine.owner.token, mine);
    const res = await ctx.request({ method: 'GET', url: '/api/v1/camps/', token: mine.owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [expect.objectContaining({ id: camp.id, myRsvp: 'maybe' })],
      nextCursor: null,
    });
    const fromTeam = await ctx.request({ method: 'GET', url: '/api/v1/camps', token: teamMember.token });
    const ids = fromTeam.json().items.map((c: { id: number }) => c.id);
    expect(ids).not.toContain(camp.id);
    expect(ids.length).toBeGreaterThan(0);
    const none = await ctx.request({ method: 'GET', url: '/api/v1/camps', token: outsider.token });
    expect(none.json()).toEqual({ items: [], nextCursor: null });
  });
});

describe('one camp', () => {
  it('is read through its own organisation only', async () => {
    const camp = await newCamp(org);
    const ok = await ctx.request({
      method: 'GET',
      url: campsUrl(org, `/${camp.id}`),
      token: teamMember.token,
    });
    expect(ok.json()).toMatchObject({ id: camp.id, rsvpCounts: { accepted: 0, declined: 0, maybe: 0 } });
    const { organisation: other } = await organisationWithTeam(org.owner);
    const wrongOrg = await ctx.request({
      method: 'GET',
      url: campsUrl(other, `/${camp.id}`),
      token: org.owner.token,
    });
    expect(wrongOrg.statusCode).toBe(404);
    const asOutsider = await ctx.request({
      method: 'GET',
      url: campsUrl(org, `/${camp.id}`),
      token: outsider.token,
    });
    expect(asOutsider.statusCode).toBe(404);
  });

  it('is changed by managers, keeping its slug unless a new one is given', async () => {
    const camp = await newCamp(org, { name: 'Before' });
    const admin = await addOrganisationMember(org, 'admin');
    const patch = (payload: object, token = admin.token) =>
      ctx.request({ method: 'PATCH', url: campsUrl(org, `/${camp.id}`), token, payload });
    const renamed = await patch({ name: 'After', location: 'Lisbon' });
    expect(renamed.json()).toMatchObject({ name: 'After', slug: camp.slug, location: 'Lisbon' });
    expect((await patch({ slug: 'after-camp', location: null })).json()).toMatchObject({
      slug: 'after-camp',
      location: null,
    });
    expect((await patch({ endsOn: '2030-05-01' })).statusCode).toBe(400);
    expect((await patch({ slug: '42' })).statusCode).toBe(400);
    expect((await patch({ slug: 'summer-writing-camp' })).statusCode).toBe(409);
    expect((await patch({ name: 'X' }, teamMember.token)).statusCode).toBe(403);
    expect((await patch({})).statusCode).toBe(400);
  });

  it('is deleted by managers with its answers', async () => {
    const camp = await newCamp(org);
    await rsvp(camp.id, 'accepted');
    const refused = await ctx.request({
      method: 'DELETE',
      url: campsUrl(org, `/${camp.id}`),
      token: teamMember.token,
    });
    expect(refused.statusCode).toBe(403);
    const res = await ctx.request({
      method: 'DELETE',
      url: campsUrl(org, `/${camp.id}`),
      token: org.owner.token,
    });
    expect(res.statusCode).toBe(204);
    const again = await ctx.request({
      method: 'DELETE',
      url: campsUrl(org, `/${camp.id}`),
      token: org.owner.token,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('POST /organisations/{id}/camps/{campId}/rsvp', () => {
  const eventsOf = (organisationId: number) =>
    ctx.database.db
      .select({ type: domainEvents.type, data: domainEvents.payload, teamId: domainEvents.teamId })
      .from(domainEvents)
      .where(and(eq(domainEvents.organisationId, organisationId), eq(domainEvents.type, 'camp.rsvp.updated')))
      .orderBy(asc(domainEvents.position))
      .then((rows) => rows.map(({ data, ...row }) => ({ ...row, payload: { type: row.type, data } })));

  it("records the caller's answer, lets them change it, and emits camp.rsvp.updated for each change", async () => {
    const { organisation, team: t } = await organisationWithTeam();
    const member = await ctx.addMember(t, 'member');
    const camp = await newCamp(organisation);
    const first = await rsvp(camp.id, 'maybe', member.token, organisation);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      organisationId: organisation.id,
      campId: camp.id,
      userId: member.id,
      status: 'maybe',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    clock.advance(1000);
    const changed = await rsvp(camp.id, 'accepted', member.token, organisation);
    expect(changed.json()).toMatchObject({ status: 'accepted', createdAt: first.json().createdAt });
    expect(changed.json().updatedAt).not.toBe(first.json().updatedAt);
    const same = await rsvp(camp.id, 'accepted', member.token, organisation);
    expect(same.json()).toEqual(changed.json());
    await rsvp(camp.id, 'declined', organisation.owner.token, organisation);

    const events = await eventsOf(organisation.id);
    expect(events.map((e) => e.payload.data)).toEqual([
      expect.objectContaining({ campId: camp.id, userId: member.id, status: 'maybe', previousStatus: null }),
      expect.objectContaining({
        campId: camp.id,
        userId: member.id,
        status: 'accepted',
        previousStatus: 'maybe',
      }),
      expect.objectContaining({ campId: camp.id, userId: organisation.owner.id, status: 'declined' }),
    ]);
    expect(events.every((e) => e.teamId === null && e.type === 'camp.rsvp.updated')).toBe(true);
    // Each change is one event of the organisation in the log, whose payload is the delivered data.
    const logged = await logOf({ organisationId: organisation.id }, 'camp.rsvp.updated');
    expect(logged.map((e) => e.payload)).toEqual(events.map((e) => e.payload.data));
    expect(logged.map((e) => e.actorUserId)).toEqual([member.id, member.id, organisation.owner.id]);
    const detail = await ctx.request({
      method: 'GET',
      url: campsUrl(organisation, `/${camp.id}`),
      token: member.token,
    });
    expect(detail.json()).toMatchObject({
      myRsvp: 'accepted',
      rsvpCounts: { accepted: 1, declined: 1, maybe: 0 },
    });
  });

  it('refuses other answers, outsiders and camps of other organisations, recording nothing', async () => {
    const camp = await newCamp(org);
    for (const payload of [{ status: 'yes' }, {}, { status: 'accepted', note: 'hi' }]) {
      const res = await ctx.request({
        method: 'POST',
        url: campsUrl(org, `/${camp.id}/rsvp`),
        token: teamMember.token,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await rsvp(camp.id, 'accepted', outsider.token)).statusCode).toBe(404);
    const { organisation: other } = await organisationWithTeam(org.owner);
    expect((await rsvp(camp.id, 'accepted', org.owner.token, other)).statusCode).toBe(404);
    expect((await rsvp(999999, 'accepted')).statusCode).toBe(404);
    const events = await eventsOf(org.id);
    expect(events.filter((e) => (e.payload.data as { campId: number }).campId === camp.id)).toEqual([]);
  });
});
