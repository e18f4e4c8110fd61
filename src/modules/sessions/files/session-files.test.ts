import { beforeAll, describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
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

/** Uploads a file to the session (URL, PUT, added); answers the ticket and the confirmed file. */
async function upload(sessionId: number, bytes: Buffer, fileName = 'guide.wav') {
  const started = await call('POST', `/api/v1/sessions/${sessionId}/files`, member.token, {
    fileName,
    fileSize: bytes.length,
  });
  expect(started.statusCode, started.body).toBe(201);
  const ticket = started.json();
  const put = await putBytes(ctx, ticket, bytes);
  expect(put.status).toBe(200);
  const added = await call('POST', `/api/v1/sessions/${sessionId}/files/${ticket.id}/added`, member.token);
  expect(added.statusCode, added.body).toBe(200);
  return { ticket, file: added.json() };
}

describe('session files', () => {
  it('uploads in two steps, lists, signs links and deletes a file', async () => {
    const session = await newSession(team);
    const base = `/api/v1/sessions/${session.id}/files`;
    const wav = testWav(0.25);
    const { ticket, file } = await upload(session.id, wav);
    expect(ticket).toMatchObject({
      sessionId: session.id,
      status: 'pending',
      fileName: 'guide.wav',
      fileSize: wav.length,
      mediaType: 'audio/wav',
      kind: 'audio',
      method: 'PUT',
      fileKey: expect.any(String),
    });
    expect(file).toMatchObject({
      id: ticket.id,
      sessionId: session.id,
      status: 'ready',
      kind: 'audio',
      audio: { durationSeconds: 0.25, channels: 2 },
      peaks: { status: 'pending' },
    });
    const again = await call('POST', `${base}/${ticket.id}/added`, member.token, {});
    expect(again.json().id).toBe(ticket.id);

    const list = await call('GET', base, member.token);
    expect(list.json().items.map((f: { id: number }) => f.id)).toEqual([ticket.id]);
    const links = await call('GET', `${base}/${ticket.id}/url`, member.token);
    expect(links.statusCode).toBe(200);
    expect(links.json()).toEqual({
      url: expect.any(String),
      downloadUrl: expect.any(String),
      urlExpiresAt: expect.any(String),
    });
    const fetched = await ctx.fetchUrl(links.json().downloadUrl);
    expect(fetched.status).toBe(200);
    expect(fetched.body.equals(wav)).toBe(true);

    expect((await call('DELETE', `${base}/${ticket.id}`, outsider.token)).statusCode).toBe(404);
    expect((await call('DELETE', `${base}/${ticket.id}`, member.token)).statusCode).toBe(204);
    expect((await call('GET', `${base}/${ticket.id}/url`, member.token)).statusCode).toBe(404);
    expect((await call('DELETE', `${base}/${ticket.id}`, member.token)).statusCode).toBe(404);
    expect((await ctx.fetchUrl(links.json().downloadUrl)).status).toBe(404);
    expect((await activityOf(session.id)).map((a) => a.action)).toEqual([
      'session.created',
      'session.file.added',
      'session.file.deleted',
    ]);
  });

  it('tells the type from the name or takes mediaType, and refuses what no kind takes', async () => {
    const session = await newSession(team);
    const base = `/api/v1/sessions/${session.id}/files`;
    const pdf = await call('POST', base, member.token, { fileName: 'lyrics.pdf', fileSize: 10 });
    expect(pdf.json()).toMatchObject({ mediaType: 'application/pdf', kind: 'document' });
    const typed = await call('POST', base, member.token, {
      fileName: 'take',
      fileSize: 10,
      mediaType: 'audio/flac',
    });
    expect(typed.json()).toMatchObject({ mediaType: 'audio/flac', kind: 'audio' });
    const unknown = await call('POST', base, member.token, { fileName: 'mystery', fileSize: 10 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('unsupported_file_type');
    for (const body of [
      { fileName: 'a.wav' },
      { fileName: '', fileSize: 1 },
      { fileName: 'a.wav', fileSize: -1 },
    ]) {
      expect((await call('POST', base, member.token, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const early = await call('POST', `${base}/${typed.json().id}/added`, member.token);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('upload_missing');
    // A pending upload is deleted like a file.
    expect((await call('DELETE', `${base}/${typed.json().id}`, member.token)).statusCode).toBe(204);
  });

  it("keeps files to the session's team and its accepted participants", async () => {
    const session = await newSession(team);
    const base = `/api/v1/sessions/${session.id}/files`;
    const { ticket } = await upload(session.id, testWav(0.1));
    expect((await call('GET', base, outsider.token)).statusCode).toBe(404);
    expect((await call('GET', `${base}/${ticket.id}/url`, outsider.token)).statusCode).toBe(404);
    expect((await call('POST', base, outsider.token, { fileName: 'x.wav', fileSize: 1 })).statusCode).toBe(
      404,
    );
    const other = await newSession(team);
    expect(
      (await call('GET', `/api/v1/sessions/${other.id}/files/${ticket.id}/url`, member.token)).statusCode,
    ).toBe(404);

    const guest = await ctx.newUser();
    await markEmailVerified(ctx, guest); // invited by address: only a verified one claims it
    const invited = await call('POST', `/api/v1/sessions/${session.id}/participants`, member.token, {
      email: guest.email,
    });
    await call('POST', `/api/v1/sessions/${session.id}/respond`, guest.token, {
      accept: true,
      participantId: invited.json().id,
    });
    expect((await call('GET', base, guest.token)).statusCode).toBe(200);
    expect((await call('GET', `${base}/${ticket.id}/url`, guest.token)).statusCode).toBe(200);
    expect((await call('POST', base, guest.token, { fileName: 'x.wav', fileSize: 1 })).statusCode).toBe(404);
    expect((await call('DELETE', `${base}/${ticket.id}`, guest.token)).statusCode).toBe(404);
  });

  it("counts towards the team's quota, and goes with its session", async () => {
    const small = await ctx.newTeam();
    const session = await newSession(small);
    await ctx.setQuota(small, 1000);
    const big = await call('POST', `/api/v1/sessions/${session.id}/files`, small.owner.token, {
      fileName: 'big.wav',
      fileSize: 5000,
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('quota_exceeded');
    await ctx.setQuota(small, 10_000_000);
    const started = await call('POST', `/api/v1/sessions/${session.id}/files`, small.owner.token, {
      fileName: 'notes.txt',
      fileSize: 5,
    });
    await putBytes(ctx, started.json(), Buffer.from('hello'));
    await call('POST', `/api/v1/sessions/${session.id}/files/${started.json().id}/added`, small.owner.token);
    const keys = await ctx.listKeys();
    const deleted = await call('DELETE', `/api/v1/sessions/${session.id}`, small.owner.token);
    expect(deleted.statusCode).toBe(204);
    expect((await ctx.listKeys()).length).toBe(keys.length - 1);
  });
});
