import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { sessionHelpers } from '../sessions.test-support.ts';
import { reaperTime } from './marker-exports.ts';

const NOW = Date.parse('2031-06-01T12:00:00.000Z');
const clock = new TestClock(NOW);
const ctx = useTestContext({ clock });
const { newSession, activityOf } = sessionHelpers(ctx);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

let team: TestTeam;
let member: TestUser;
let sessionId: number;
let base: string;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
  sessionId = (await newSession(team)).id;
  const live = await call('POST', `/api/v1/sessions/${sessionId}/recordings/live`, member.token, {
    teamId: team.id,
  });
  base = `/api/v1/sessions/${sessionId}/recordings/${live.json().id}/markers`;
});

const place = (fields: object, token = member.token) =>
  call('POST', base, token, { teamId: team.id, label: 'Chorus', positionSeconds: 1, ...fields });

describe('markers', () => {
  it('places markers while the recording runs, lists them in time order, changes and removes them', async () => {
    const created = await place({ label: 'Verse 2', positionSeconds: 42.5, color: '#00AAff' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(Number),
      recordingId: expect.any(Number),
      label: 'Verse 2',
      positionSeconds: 42.5,
      color: '#00aaff',
      createdBy: member.id,
      createdAt: new Date(NOW).toISOString(),
      updatedAt: new Date(NOW).toISOString(),
    });
    expect((await place({ label: 'Intro', positionSeconds: 0 })).json().color).toBe('#f5a623');
    await place({ label: 'Way out', positionSeconds: 3000 });

    const first = await call('GET', `${base}?teamId=${team.id}&limit=2`, member.token);
    expect(first.json().items.map((m: { label: string }) => m.label)).toEqual(['Intro', 'Verse 2']);
    const rest = await call(
      'GET',
      `${base}?teamId=${team.id}&cursor=${first.json().nextCursor}&limit=2`,
      member.token,
    );
    expect(rest.json()).toMatchObject({ items: [{ label: 'Way out' }], nextCursor: null });

    const url = `${base}/${created.json().id}`;
    clock.advance(1000);
    const moved = await call('PATCH', url, member.token, {
      teamId: team.id,
      positionSeconds: 40,
      label: 'Verse two',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ positionSeconds: 40, label: 'Verse two', color: '#00aaff' });
    expect((await call('PATCH', url, member.token, { teamId: team.id })).statusCode).toBe(400);
    expect((await call('PATCH', url, member.token, { label: '' })).statusCode).toBe(400);
    const other = await ctx.newTeam(team.owner);
    expect((await call('PATCH', url, team.owner.token, { teamId: other.id, label: 'x' })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', url, team.owner.token, { teamId: other.id })).statusCode).toBe(404);
    expect((await call('DELETE', url, member.token, { teamId: 'one' })).statusCode).toBe(400);
    expect((await call('DELETE', url, member.token, { teamId: team.id })).statusCode).toBe(204);
    expect((await call('DELETE', url, member.token, { teamId: team.id })).statusCode).toBe(404);
    expect((await call('PATCH', url, member.token, { teamId: team.id, label: 'x' })).statusCode).toBe(404);
    const actions = (await activityOf(sessionId)).map((a) => a.action);
    expect(actions.filter((a) => a.startsWith('session.marker.'))).toEqual([
      'session.marker.created',
      'session.marker.created',
      'session.marker.created',
      'session.marker.updated',
      'session.marker.deleted',
    ]);
  });

  it('refuses bad markers with 400, and positions past the end once the duration is known', async () => {
    for (const fields of [
      { positionSeconds: -1 },
      { positionSeconds: 1e12 },
      { positionSeconds: '3' },
      { label: '' },
      { label: 'x'.repeat(201) },
      { color: 'red' },
      { color: '#12345' },
      { extra: 1 },
    ]) {
      expect((await place(fields)).statusCode, JSON.stringify(fields)).toBe(400);
    }
    const session = await newSession(team);
    const recordings = `/api/v1/sessions/${session.id}/recordings`;
    const live = (await call('POST', `${recordings}/live`, member.token, { teamId: team.id })).json();
    clock.advance(60_000);
    await call('POST', `${recordings}/${live.id}/stop`, member.token);
    const markers = `${recordings}/${live.id}/markers`;
    const body = { teamId: team.id, label: 'End' };
    expect((await call('POST', markers, member.token, { ...body, positionSeconds: 60 })).statusCode).toBe(
      201,
    );
    const past = await call('POST', markers, member.token, { ...body, positionSeconds: 60.5 });
    expect(past.statusCode).toBe(400);
    expect(past.json().details[0].path).toBe('/body/positionSeconds');
    expect(
      (await call('GET', `${recordings}/99999/markers?teamId=${team.id}`, member.token)).statusCode,
    ).toBe(404);
    // A recording of another session is not found under this one.
    expect(
      (
        await call(
          'GET',
          `/api/v1/sessions/${sessionId}/recordings/${live.id}/markers?teamId=${team.id}`,
          member.token,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('hides markers from outsiders and keeps them from accepted guests', async () => {
    const outsider = await ctx.newUser();
    await markEmailVerified(ctx, outsider); // invited by address: only a verified one claims it
    expect((await call('GET', `${base}?teamId=${team.id}`, outsider.token)).statusCode).toBe(404);
    expect((await place({}, outsider.token)).statusCode).toBe(404);
    const invited = await call('POST', `/api/v1/sessions/${sessionId}/participants`, member.token, {
      email: outsider.email,
    });
    await call('POST', `/api/v1/sessions/${sessionId}/respond`, outsider.token, {
      accept: true,
      participantId: invited.json().id,
    });
    expect((await call('GET', `${base}?teamId=${team.id}`, outsider.token)).statusCode).toBe(200);
    expect((await place({}, outsider.token)).statusCode).toBe(404);
  });
});

// Read as a spreadsheet reads it: a bare CR or LF outside quotes ends a row too.
const SPREADSHEET = { record_delimiter: ['\r\n', '\n', '\r'] };

describe('marker export', () => {
  let exportBase: string;

  beforeAll(async () => {
    const session = await newSession(team);
    const live = await call('POST', `/api/v1/sessions/${session.id}/recordings/live`, member.token, {
      teamId: team.id,
    });
    exportBase = `/api/v1/sessions/${session.id}/recordings/${live.json().id}/markers`;
    for (const [label, positionSeconds, color] of [
      ['=HYPERLINK("http://x")', 65.25, '#ff0000'],
      ['Intro, "soft"', 0, '#00ff00'],
      ['Bridge\tpart\nB', 3725.5, '#0000ff'],
      ['Verse\n@SUM(1)\r-2', 100, '#ffffff'],
    ] as const) {
      await call('POST', exportBase, member.token, { teamId: team.id, label, positionSeconds, color });
    }
  });

  const exported = (format?: string) =>
    call('GET', `${exportBase}/export?teamId=${team.id}${format ? `&format=${format}` : ''}`, member.token);

  it('writes CSV by default, formula-safe, as an attachment', async () => {
    const res = await exported();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="recording-\d+-markers\.csv"$/);
    const rows: string[][] = parse(res.body, SPREADSHEET);
    expect(rows[0]).toEqual([
      'id',
      'recordingId',
      'label',
      'positionSeconds',
      'color',
      'createdBy',
      'createdAt',
    ]);
    expect(rows.slice(1).map((r) => [r[2], r[3], r[4]])).toEqual([
      ['Intro, "soft"', '0', '#00ff00'],
      [`'=HYPERLINK("http://x")`, '65.25', '#ff0000'],
      ["Verse\n'@SUM(1)\r'-2", '100', '#ffffff'],
      ['Bridge\tpart\nB', '3725.5', '#0000ff'],
    ]);
    expect(res.body.includes('\r\n')).toBe(true);
  });

  it('writes an Audacity label track: start, end and label, tab-separated, one line each', async () => {
    const res = await exported('audacity');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/filename="recording-\d+-labels\.txt"/);
    expect(res.body).toBe(
      '0.000000\t0.000000\tIntro, "soft"\n' +
        '65.250000\t65.250000\t=HYPERLINK("http://x")\n' +
        '100.000000\t100.000000\tVerse @SUM(1) -2\n' +
        '3725.500000\t3725.500000\tBridge part B\n',
    );
  });

  it("writes REAPER's marker list: #,Name,Start,End,Length,Color", async () => {
    const res = await exported('reaper');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const rows: string[][] = parse(res.body, SPREADSHEET);
    expect(rows).toEqual([
      ['#', 'Name', 'Start', 'End', 'Length', 'Color'],
      ['M1', 'Intro, "soft"', '0:00.000', '', '', '00FF00'],
      ['M2', `'=HYPERLINK("http://x")`, '1:05.250', '', '', 'FF0000'],
      ['M3', 'Verse @SUM(1) -2', '1:40.000', '', '', 'FFFFFF'],
      ['M4', 'Bridge part B', '62:05.500', '', '', '0000FF'],
    ]);
    expect(reaperTime(59.9996)).toBe('1:00.000');
  });

  it('refuses an unknown format and outsiders, and takes no teamId as the session’s team', async () => {
    expect((await exported('midi')).statusCode).toBe(400);
    expect((await call('GET', `${exportBase}/export`, member.token)).statusCode).toBe(200);
    const outsider = await ctx.newUser();
    expect((await call('GET', `${exportBase}/export?teamId=${team.id}`, outsider.token)).statusCode).toBe(
      404,
    );
  });
});
