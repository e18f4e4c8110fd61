import { uuidv7 } from 'uuidv7';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { followUpTasks } from '../../db/schema/index.ts';
import { sessionHelpers } from './sessions.test-support.ts';

const clock = new TestClock(Date.parse('2031-06-01T12:00:00.000Z'));
const ctx = useTestContext({ clock });
const { newSession } = sessionHelpers(ctx);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

let team: TestTeam;
let member: TestUser;
/** Another team the member belongs to: its id names the wrong team of a session of `team`. */
let sideTeam: TestTeam;
/** A team `member` is not in. */
let stranger: TestTeam;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
  sideTeam = await ctx.newTeam(member);
  stranger = await ctx.newTeam();
});

/** `url` with `teamId` in its query when given. */
const withTeam = (url: string, teamId?: number) =>
  teamId === undefined ? url : `${url}${url.includes('?') ? '&' : '?'}teamId=${teamId}`;

describe('teamId on the routes of one session', () => {
  let sessionId: number;
  let markers: string;
  let markerId: number;

  beforeAll(async () => {
    sessionId = (await newSession(team)).id;
    const live = await call('POST', `/api/v1/sessions/${sessionId}/recordings/live`, member.token);
    expect(live.statusCode, live.body).toBe(201);
    await call('POST', `/api/v1/sessions/${sessionId}/recordings/${live.json().id}/stop`, member.token);
    markers = `/api/v1/sessions/${sessionId}/recordings/${live.json().id}/markers`;
    const marker = await call('POST', markers, member.token, { label: 'Intro', positionSeconds: 0 });
    expect(marker.statusCode, marker.body).toBe(201);
    markerId = marker.json().id;
  });

  const reads = () => [
    `/api/v1/sessions/${sessionId}`,
    `/api/v1/sessions/${sessionId}/participants`,
    `/api/v1/sessions/${sessionId}/invite-url`,
    `/api/v1/sessions/${sessionId}/follow`,
    `/api/v1/sessions/${sessionId}/songs`,
    `/api/v1/sessions/${sessionId}/recordings`,
    `/api/v1/sessions/${sessionId}/canvas`,
    markers,
    `${markers}/export?format=csv`,
  ];

  it('reads without teamId (the session names its team) and with the session’s own', async () => {
    for (const url of reads()) {
      for (const teamId of [undefined, team.id]) {
        const res = await call('GET', withTeam(url, teamId), member.token);
        expect(res.statusCode, `${withTeam(url, teamId)} ${res.body}`).toBe(200);
      }
    }
  });

  it('answers 404 to another team’s id, and to a caller outside the team with or without one', async () => {
    for (const url of reads()) {
      const wrong = await call('GET', withTeam(url, sideTeam.id), member.token);
      expect(wrong.statusCode, withTeam(url, sideTeam.id)).toBe(404);
      for (const teamId of [undefined, team.id, stranger.id]) {
        const outside = await call('GET', withTeam(url, teamId), stranger.owner.token);
        expect(outside.statusCode, `${withTeam(url, teamId)} as an outsider`).toBe(404);
      }
    }
  });

  it('writes without teamId, and refuses another team’s id or an outsider (404)', async () => {
    const rotate = `/api/v1/sessions/${sessionId}/invite-url/rotate`;
    expect((await call('POST', rotate, member.token)).statusCode).toBe(200);
    expect((await call('POST', rotate, member.token, {})).statusCode).toBe(200);
    expect((await call('POST', rotate, member.token, { teamId: team.id })).statusCode).toBe(200);
    expect((await call('POST', rotate, member.token, { teamId: sideTeam.id })).statusCode).toBe(404);
    expect((await call('POST', rotate, stranger.owner.token)).statusCode).toBe(404);

    const upload = `/api/v1/sessions/${sessionId}/recordings/upload-url`;
    const file = { fileName: 'take.wav', fileSize: 4, contentType: 'audio/wav' };
    const ticket = await call('POST', upload, member.token, file);
    expect(ticket.statusCode, ticket.body).toBe(200);
    expect((await call('POST', upload, member.token, { ...file, teamId: sideTeam.id })).statusCode).toBe(404);
    expect((await call('POST', upload, stranger.owner.token, file)).statusCode).toBe(404);

    const register = `/api/v1/sessions/${sessionId}/recordings`;
    const registration = { ...file, pendingKey: ticket.json().pendingKey };
    expect((await call('POST', register, stranger.owner.token, registration)).statusCode).toBe(404);
    expect(
      (await call('POST', register, member.token, { ...registration, teamId: sideTeam.id })).statusCode,
    ).toBe(404);

    const created = await call('POST', markers, member.token, { label: 'Verse', positionSeconds: 0 });
    expect(created.statusCode, created.body).toBe(201);
    const other = { label: 'x', positionSeconds: 0 };
    expect((await call('POST', markers, member.token, { ...other, teamId: sideTeam.id })).statusCode).toBe(
      404,
    );
    expect((await call('POST', markers, stranger.owner.token, other)).statusCode).toBe(404);

    const marker = `${markers}/${created.json().id}`;
    const moved = await call('PATCH', marker, member.token, { label: 'Verse 1' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().label).toBe('Verse 1');
    expect((await call('PATCH', marker, member.token, { teamId: sideTeam.id, label: 'y' })).statusCode).toBe(
      404,
    );
    expect((await call('PATCH', marker, stranger.owner.token, { label: 'y' })).statusCode).toBe(404);
    const onlyTeam = await call('PATCH', marker, member.token, { teamId: team.id });
    expect(onlyTeam.statusCode).toBe(400);
    expect(onlyTeam.json().details).toEqual([
      { path: '/body', message: 'must name a field to change besides teamId' },
    ]);

    expect((await call('DELETE', marker, member.token, { teamId: sideTeam.id })).statusCode).toBe(404);
    expect((await call('DELETE', marker, stranger.owner.token)).statusCode).toBe(404);
    expect((await call('DELETE', marker, member.token)).statusCode).toBe(204);
    expect((await call('DELETE', `${markers}/${markerId}`, member.token, {})).statusCode).toBe(204);
  });

  it('starts a live recording without a body, and not for another team or an outsider', async () => {
    const session = await newSession(team);
    const live = `/api/v1/sessions/${session.id}/recordings/live`;
    expect((await call('POST', live, member.token, { teamId: sideTeam.id })).statusCode).toBe(404);
    expect((await call('POST', live, stranger.owner.token)).statusCode).toBe(404);
    const started = await call('POST', live, member.token);
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({ status: 'live' });
  });

  it('still needs teamId where no session names the team', async () => {
    const upcoming = await call('GET', '/api/v1/sessions/upcoming', member.token);
    expect(upcoming.statusCode).toBe(400);
    expect(upcoming.json().details).toEqual([{ path: '/query/teamId', message: 'is required' }]);
    expect((await call('GET', `/api/v1/sessions/upcoming?teamId=${team.id}`, member.token)).statusCode).toBe(
      200,
    );
  });

  it('documents teamId as optional on those routes', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const follow = doc.paths['/api/v1/sessions/{sessionId}/follow'].get.parameters;
    expect(follow.find((p: { name: string }) => p.name === 'teamId')).toMatchObject({ required: false });
    const invite = doc.paths['/api/v1/sessions/{sessionId}/invite-url'].get.parameters;
    expect(invite.find((p: { name: string }) => p.name === 'teamId')).toMatchObject({ required: false });
  });
});

describe('teamId on the deletion of a follow-up task', () => {
  async function newTask(owner: TestUser, teamId: number) {
    const id = uuidv7();
    await ctx.database.db
      .insert(followUpTasks)
      .values({ id, teamId, userId: owner.id, botId: 'assistant', person: 'Maya' });
    return `/api/v1/chat/bots/assistant/follow-ups/${id}`;
  }

  it('deletes the caller’s task without teamId, and keeps others’ and other teams’ 404', async () => {
    const task = await newTask(member, team.id);
    expect((await call('DELETE', task, team.owner.token)).statusCode).toBe(404);
    expect((await call('DELETE', withTeam(task, sideTeam.id), member.token)).statusCode).toBe(404);
    expect((await call('DELETE', task, member.token)).statusCode).toBe(204);
    expect((await call('DELETE', task, member.token)).statusCode).toBe(404);
    const named = await newTask(member, team.id);
    expect((await call('DELETE', withTeam(named, team.id), member.token)).statusCode).toBe(204);
  });

  it('answers 404 for a task of a team the caller has left', async () => {
    const leaver = await ctx.addMember(team, 'member');
    const task = await newTask(leaver, team.id);
    await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/members/${leaver.id}`,
      token: team.owner.token,
    });
    expect((await call('DELETE', task, leaver.token)).statusCode).toBe(404);
  });
});
