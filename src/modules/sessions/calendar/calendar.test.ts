import ical, { type VEvent } from 'node-ical';
import { beforeAll, describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { sessionHelpers } from '../sessions.test-support.ts';

const NOW = Date.parse('2031-06-01T12:00:00.000Z');
const ctx = useTestContext({ clock: new TestClock(NOW) });
const { newSession, newOrganisation } = sessionHelpers(ctx);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: object) =>
  ctx.request({ method, url, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
const pathOf = (url: string) => new URL(url).pathname;

let team: TestTeam;
let member: TestUser;
let session: { id: number };
let feedUrl: string;

beforeAll(async () => {
  team = await ctx.newTeam(undefined, 'The Night Owls');
  member = await ctx.addMember(team, 'member');
  const { studioIds } = await newOrganisation([team]);
  session = await newSession(team, {
    title: 'Vocals, take 2; "final"',
    startsAt: '2031-06-02T10:00:00Z',
    endsAt: '2031-06-02T14:30:00Z',
    studioId: studioIds[0],
    notes: 'Bring the SM7B\nand coffee',
  });
  const cancelled = await newSession(team, { title: 'Cancelled one', startsAt: '2031-06-03T10:00:00Z' });
  await call('PATCH', `/api/v1/sessions/${cancelled.id}`, team.owner.token, { status: 'cancelled' });
  await newSession(team, { title: 'Long ago', startsAt: '2031-01-01T10:00:00Z' });
  await newSession(await ctx.newTeam(team.owner), { title: 'Other team', startsAt: '2031-06-02T10:00:00Z' });
  const res = await call('GET', `/api/v1/sessions/${session.id}/follow?teamId=${team.id}`, member.token);
  expect(res.statusCode, res.body).toBe(200);
  feedUrl = res.json().icsUrl;
});

describe('follow', () => {
  it('answers an https-or-http feed URL and the same feed as webcal:', async () => {
    const res = await call('GET', `/api/v1/sessions/${session.id}/follow?teamId=${team.id}`, member.token);
    const { icsUrl, webcalUrl } = res.json();
    expect(icsUrl).toBe(feedUrl);
    expect(icsUrl).toMatch(/^https?:\/\/.+\/api\/v1\/sessions\/calendar\/[A-Za-z0-9_.-]+\.ics$/);
    expect(webcalUrl).toBe(icsUrl.replace(/^https?:/, 'webcal:'));
  });

  it("serves the team's sessions as RFC 5545, anonymously, that a calendar library reads back", async () => {
    const res = await call('GET', pathOf(feedUrl));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.body.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    const events = Object.values(ical.sync.parseICS(res.body)).filter(
      (c): c is VEvent => c?.type === 'VEVENT',
    );
    expect(events.map((e) => e.summary).sort()).toEqual(['Cancelled one', 'Vocals, take 2; "final"']);
    const vocals = events.find((e) => e.summary === 'Vocals, take 2; "final"')!;
    expect(vocals.start.toISOString()).toBe('2031-06-02T10:00:00.000Z');
    expect(vocals.end?.toISOString()).toBe('2031-06-02T14:30:00.000Z');
    expect(vocals.location).toBe('Room 1');
    expect(vocals.description).toBe('Bring the SM7B\nand coffee');
    expect(vocals.status).toBe('CONFIRMED');
    expect(vocals.uid).toMatch(new RegExp(`^studio-session-${session.id}@`));
    expect(events.find((e) => e.summary === 'Cancelled one')!.status).toBe('CANCELLED');
  });

  it('refuses a tampered URL (403), and follow to outsiders and accepted guests (404)', async () => {
    const path = pathOf(feedUrl);
    const tampered = path.replace(/.\.ics$/, (m) => `${m[0] === 'A' ? 'B' : 'A'}.ics`);
    const res = await call('GET', tampered);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('invalid_signature');
    expect((await call('GET', '/api/v1/sessions/calendar/nonsense.ics')).statusCode).toBe(403);
    const outsider = await ctx.newUser();
    await markEmailVerified(ctx, outsider); // invited by address: only a verified one claims it
    expect(
      (await call('GET', `/api/v1/sessions/${session.id}/follow?teamId=${team.id}`, outsider.token))
        .statusCode,
    ).toBe(404);
    await call('POST', `/api/v1/sessions/${session.id}/participants`, member.token, {
      email: outsider.email,
    });
    const [invitation] = (
      await call('GET', `/api/v1/sessions/${session.id}/participants?teamId=${team.id}`, outsider.token)
    ).json().items;
    await call('POST', `/api/v1/sessions/${session.id}/respond`, outsider.token, {
      accept: true,
      participantId: invitation.id,
    });
    expect(
      (await call('GET', `/api/v1/sessions/${session.id}/follow?teamId=${team.id}`, outsider.token))
        .statusCode,
    ).toBe(404);
  });

  it('stops serving a URL once it is rotated, or its holder leaves the team', async () => {
    const holder = await ctx.addMember(team, 'member');
    const first = (
      await call('GET', `/api/v1/sessions/${session.id}/follow?teamId=${team.id}`, holder.token)
    ).json().icsUrl;
    const rotated = await call('POST', '/api/v1/sessions/calendar/rotate', holder.token, { teamId: team.id });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().icsUrl).not.toBe(first);
    expect((await call('GET', pathOf(first))).statusCode).toBe(404);
    expect((await call('GET', pathOf(rotated.json().icsUrl))).statusCode).toBe(200);
    expect((await call('GET', pathOf(feedUrl))).statusCode).toBe(200);
    expect(
      (await call('POST', '/api/v1/sessions/calendar/rotate', holder.token, { teamId: 99999 })).statusCode,
    ).toBe(404);

    const removed = await call('DELETE', `/api/v1/teams/${team.id}/members/${holder.id}`, team.owner.token);
    expect(removed.statusCode).toBe(204);
    expect((await call('GET', pathOf(rotated.json().icsUrl))).statusCode).toBe(404);
  });
});
