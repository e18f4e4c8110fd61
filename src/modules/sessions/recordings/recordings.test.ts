import { beforeAll, describe, expect, it } from 'vitest';
import type { TestTeam, TestUser } from '../../../../test/helpers/context.ts';
import { putBytes, testWav } from '../../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { sessionHelpers } from '../sessions.test-support.ts';

const ctx = useStorageTestContext('local');
const { newSession, activityOf } = sessionHelpers(ctx);

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

let team: TestTeam;
let member: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
  outsider = await ctx.newUser();
});

/** Asks for an upload URL of the session's recordings and PUTs `bytes` there; answers the register body. */
async function uploaded(sessionId: number, bytes: Buffer, fileName = 'take-1.wav') {
  const body = { teamId: team.id, fileName, fileSize: bytes.length, contentType: 'audio/wav' };
  const res = await call('POST', `/api/v1/sessions/${sessionId}/recordings/upload-url`, member.token, body);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json()).sort()).toEqual([
    'expiresAt',
    'headers',
    'method',
    'pendingKey',
    'resumable',
    'uploadUrl',
  ]);
  const put = await putBytes(ctx, res.json(), bytes);
  expect(put.status).toBe(200);
  return { ...body, pendingKey: res.json().pendingKey as string };
}

describe('uploaded recordings', () => {
  it('registers an upload with its audio facts, then its waveform, and lists it', async () => {
    const session = await newSession(team);
    const base = `/api/v1/sessions/${session.id}/recordings`;
    const wav = testWav(0.5);
    const body = await uploaded(session.id, wav);
    const res = await call('POST', base, member.token, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      sessionId: session.id,
      name: 'take-1.wav',
      status: 'ready',
      startedAt: null,
      durationSeconds: 0.5,
      createdBy: member.id,
      audio: {
        fileName: 'take-1.wav',
        contentType: 'audio/wav',
        size: wav.length,
        facts: { durationSeconds: 0.5, sampleRate: 44_100, channels: 2 },
        peaks: { status: 'pending' },
      },
    });
    await ctx.runJobs();
    const list = await call('GET', `${base}?teamId=${team.id}`, member.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toHaveLength(1);
    expect(list.json().items[0].audio.peaks).toMatchObject({
      status: 'ready',
      bucketCount: expect.any(Number),
    });
    expect(list.json().items[0].audio.peaks.min).toBeUndefined();
    expect((await ctx.fetchUrl(list.json().items[0].audio.downloadUrl)).body.equals(wav)).toBe(true);
    expect((await call('POST', base, member.token, body)).statusCode).toBe(404);
    expect((await activityOf(session.id)).map((a) => a.action)).toContain('session.recording.registered');
  });

  it('refuses a body that does not match its upload (400, the upload stays usable) and non-audio types', async () => {
    const session = await newSession(team);
    const base = `/api/v1/sessions/${session.id}/recordings`;
    const body = await uploaded(session.id, testWav(0.2));
    const wrongSize = await call('POST', base, member.token, { ...body, fileSize: body.fileSize + 1 });
    expect(wrongSize.statusCode).toBe(400);
    expect(wrongSize.json().details[0].path).toBe('/body/fileSize');
    const wrongType = await call('POST', base, member.token, { ...body, contentType: 'audio/flac' });
    expect(wrongType.json().details[0].path).toBe('/body/contentType');
    expect(
      (await call('POST', base, member.token, { ...body, pendingKey: 'pending/1/nope' })).statusCode,
    ).toBe(404);
    const other = await newSession(team);
    expect(
      (await call('POST', `/api/v1/sessions/${other.id}/recordings`, member.token, body)).statusCode,
    ).toBe(404);
    expect((await call('POST', base, member.token, body)).statusCode).toBe(201);

    const pdf = await call('POST', `${base}/upload-url`, member.token, {
      teamId: team.id,
      fileName: 'take.pdf',
      fileSize: 10,
      contentType: 'application/pdf',
    });
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().code).toBe('unsupported_file_type');
    for (const bad of [
      { teamId: team.id, fileName: 'a.wav', fileSize: 1 },
      { teamId: team.id, fileName: 'a.wav', fileSize: 1, contentType: 'audio/wav', x: 1 },
    ]) {
      expect((await call('POST', `${base}/upload-url`, member.token, bad)).statusCode).toBe(400);
    }
    expect(
      (
        await call('POST', `${base}/upload-url`, outsider.token, {
          teamId: team.id,
          fileName: 'a.wav',
          fileSize: 1,
          contentType: 'audio/wav',
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('live recordings', () => {
  it('starts one live recording at a time, stops it, and attaches its audio later', async () => {
    const session = await newSession(team);
    const base = `/api/v1/sessions/${session.id}/recordings`;
    const started = await call('POST', `${base}/live`, member.token, { teamId: team.id });
    expect(started.statusCode, started.body).toBe(201);
    const live = started.json();
    expect(live).toMatchObject({
      status: 'live',
      name: 'Live recording',
      startedAt: expect.any(String),
      stoppedAt: null,
      durationSeconds: null,
      audio: null,
    });
    const second = await call('POST', `${base}/live`, member.token, { teamId: team.id, name: 'Second' });
    expect(second.statusCode).toBe(409);

    const body = await uploaded(session.id, testWav(0.3));
    const tooEarly = await call('POST', base, member.token, { ...body, recordingId: live.id });
    expect(tooEarly.statusCode).toBe(409);

    ctx.clock.advance(90_000);
    const stopped = await call('POST', `${base}/${live.id}/stop`, member.token);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ status: 'stopped', durationSeconds: 90 });
    expect((await call('POST', `${base}/${live.id}/stop`, member.token, {})).statusCode).toBe(409);

    const attached = await call('POST', base, member.token, { ...body, recordingId: live.id });
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json()).toMatchObject({
      id: live.id,
      name: 'Live recording',
      status: 'ready',
      durationSeconds: 0.3,
      audio: { facts: { durationSeconds: 0.3 } },
    });
    const more = await uploaded(session.id, testWav(0.1));
    expect((await call('POST', base, member.token, { ...more, recordingId: live.id })).statusCode).toBe(409);
    expect((await call('POST', base, member.token, { ...more, recordingId: 99999 })).statusCode).toBe(404);

    const next = await call('POST', `${base}/live`, member.token, { teamId: team.id, name: 'Second' });
    expect(next.statusCode).toBe(201);
    const list = await call('GET', `${base}?teamId=${team.id}`, member.token);
    expect(list.json().items.map((r: { name: string }) => r.name)).toEqual(['Second', 'Live recording']);
    const actions = (await activityOf(session.id)).map((a) => a.action);
    expect(actions).toEqual([
      'session.created',
      'session.recording.started',
      'session.recording.stopped',
      'session.recording.registered',
      'session.recording.started',
    ]);
  });

  it('keeps recordings to the team: outsiders, other teams and guests change nothing', async () => {
    const session = await newSession(team);
    const base = `/api/v1/sessions/${session.id}/recordings`;
    const stranger = await ctx.newTeam(outsider);
    expect((await call('POST', `${base}/live`, outsider.token, { teamId: team.id })).statusCode).toBe(404);
    expect((await call('POST', `${base}/live`, outsider.token, { teamId: stranger.id })).statusCode).toBe(
      404,
    );
    expect((await call('GET', `${base}?teamId=${team.id}`, outsider.token)).statusCode).toBe(404);
    const live = (await call('POST', `${base}/live`, member.token, { teamId: team.id })).json();
    expect((await call('POST', `${base}/${live.id}/stop`, outsider.token)).statusCode).toBe(404);
    expect(
      (await call('POST', `${base}/${live.id}/stop`, member.token, { teamId: stranger.id })).statusCode,
    ).toBe(404);
    const still = await call('GET', `${base}?teamId=${team.id}`, member.token);
    expect(still.json().items[0].status).toBe('live');
  });
});
