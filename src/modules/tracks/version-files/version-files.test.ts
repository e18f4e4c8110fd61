import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestTeam, TestTrack } from '../../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes, RESUMABLE_TICKET, testWav } from '../../../../test/helpers/file-flow.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import {
  callWith,
  newStem,
  uploadStemBytes,
  versionsBase,
} from '../../../../test/helpers/version-uploads.ts';
import { files } from '../../../db/schema/index.ts';
import { MAX_VERSION_FILES } from './version-files.service.ts';

const ctx = useStorageTestContext('local');
const call = callWith(ctx);

const filesOf = (track: TestTrack, versionId = track.versionId) =>
  `${versionsBase(track)}/${versionId}/files`;

/** Asks for an additional-file upload URL of the version and PUTs a short WAV there. */
async function uploadVersionFile(
  team: TestTeam,
  track: TestTrack,
  name = 'instrumental.wav',
  versionId?: number,
) {
  const res = await call('POST', `${filesOf(track, versionId)}/create`, team.owner.token, {
    audio_file_name: name,
  });
  expect(res.statusCode, res.body).toBe(201);
  const ticket = res.json();
  expect((await putBytes(ctx, ticket, testWav(0.1))).status).toBe(200);
  return ticket;
}

async function addVersionFile(team: TestTeam, track: TestTrack, name?: string) {
  const ticket = await uploadVersionFile(team, track, name);
  const res = await call('POST', filesOf(track), team.owner.token, { fileKey: ticket.fileKey });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('additional files of a version', () => {
  it('gives an upload URL, registers the file and lists it in the version detail', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const token = team.owner.token;
    const created = await call('POST', `${filesOf(track)}/create`, token, {
      audio_file_name: ' Instrumental.wav ',
    });
    expect(created.statusCode, created.body).toBe(201);
    const ticket = created.json();
    expect(ticket).toEqual({
      id: expect.any(Number),
      versionId: track.versionId,
      fileName: 'Instrumental.wav',
      contentType: 'audio/wav',
      uploadUrl: expect.any(String),
      method: 'PUT',
      headers: { 'content-type': 'audio/wav' },
      fileKey: expect.stringMatching(/^pending\//),
      expiresAt: expect.any(String),
      resumable: RESUMABLE_TICKET,
    });
    const early = await call('POST', filesOf(track), token, { fileKey: ticket.fileKey });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('upload_missing');
    const wav = testWav(0.25);
    expect((await putBytes(ctx, ticket, wav)).status).toBe(200);
    const registered = await call('POST', filesOf(track), token, { fileKey: ticket.fileKey });
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json()).toMatchObject({
      fileId: ticket.id,
      fileName: 'Instrumental.wav',
      size: wav.length,
      facts: { channels: 2, codec: 'PCM' },
      peaks: { status: 'pending' },
      url: expect.any(String),
      downloadUrl: expect.any(String),
      createdAt: expect.any(String),
    });
    const second = await addVersionFile(team, track, 'a cappella.wav');

    const detail = (await call('GET', `${versionsBase(track)}/${track.versionId}/detail`, token)).json();
    expect(detail.files.map((f: { fileId: number }) => f.fileId)).toEqual([ticket.id, second.fileId]);
    const fetched = await ctx.fetchUrl(detail.files[0].url);
    expect(fetched.status).toBe(200);
    expect(fetched.body.equals(wav)).toBe(true);
    // The main audio is unchanged by additional files.
    expect(detail.audio).toBeNull();
  });

  it('refuses invalid bodies and non-audio files', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const token = team.owner.token;
    for (const body of [{}, { audio_file_name: '' }, { audio_file_name: 'a.wav', fileName: 'b.wav' }]) {
      const res = await call('POST', `${filesOf(track)}/create`, token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await call('POST', `${filesOf(track)}/create`, token, {})).json().details[0].path).toBe(
      '/body/audioFileName',
    );
    const text = await call('POST', `${filesOf(track)}/create`, token, { audio_file_name: 'notes.txt' });
    expect(text.statusCode).toBe(400);
    expect(text.json().code).toBe('unsupported_file_type');
    expect((await call('POST', filesOf(track), token, {})).json().details[0].path).toBe('/body/fileKey');
    expect((await call('DELETE', `${filesOf(track)}/abc`, token)).statusCode).toBe(400);
  });

  it('registers only its own uploads and deletes only its own files', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const token = team.owner.token;
    const other = await ctx.newVersion(track);
    const ofOtherVersion = await uploadVersionFile(team, track, 'x.wav', other.id);
    const stemUpload = await uploadStemBytes(ctx, team, track, track.versionId);
    for (const fileKey of [ofOtherVersion.fileKey, stemUpload.stemKey, 'pending/1/none']) {
      expect((await call('POST', filesOf(track), token, { fileKey })).statusCode, fileKey).toBe(404);
    }
    const stem = await newStem(ctx, team, track);
    const file = await addVersionFile(team, track);
    // A stem's file or another version's path is not an additional file of this version.
    expect((await call('DELETE', `${filesOf(track)}/${stem.file.fileId}`, token)).statusCode).toBe(404);
    expect((await call('DELETE', `${filesOf(track, other.id)}/${file.fileId}`, token)).statusCode).toBe(404);
    const outsider = await ctx.newTeam();
    expect((await call('DELETE', `${filesOf(track)}/${file.fileId}`, outsider.owner.token)).statusCode).toBe(
      404,
    );

    expect((await call('DELETE', `${filesOf(track)}/${file.fileId}`, token)).statusCode).toBe(204);
    expect((await call('DELETE', `${filesOf(track)}/${file.fileId}`, token)).statusCode).toBe(404);
    const detail = (await call('GET', `${versionsBase(track)}/${track.versionId}/detail`, token)).json();
    expect(detail.files).toEqual([]);
    await expectNoOrphans(ctx);
  });

  it(`holds at most ${MAX_VERSION_FILES} additional files per version`, async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const late = await uploadVersionFile(team, track, 'late.wav');
    for (let i = 1; i < MAX_VERSION_FILES; i++) await addVersionFile(team, track, `take ${i}.wav`);
    const last = await addVersionFile(team, track, 'last.wav');
    const full = await call('POST', `${filesOf(track)}/create`, team.owner.token, {
      audio_file_name: 'x.wav',
    });
    expect(full.statusCode).toBe(409);
    // An upload issued before the version was full is refused at registration.
    const refused = await call('POST', filesOf(track), team.owner.token, { fileKey: late.fileKey });
    expect(refused.statusCode).toBe(409);
    expect((await call('DELETE', `${filesOf(track)}/${last.fileId}`, team.owner.token)).statusCode).toBe(204);
    expect((await call('POST', filesOf(track), team.owner.token, { fileKey: late.fileKey })).statusCode).toBe(
      201,
    );
  });

  it('deletes additional files with their version and with a hard-deleted track', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const second = await ctx.newVersion(track);
    const ticket = await uploadVersionFile(team, track, 'alt.wav', second.id);
    const onSecond = await call('POST', filesOf(track, second.id), team.owner.token, {
      fileKey: ticket.fileKey,
    });
    const onFirst = await addVersionFile(team, track);
    const rows = (ids: number[]) =>
      ctx.database.db.select({ id: files.id }).from(files).where(inArray(files.id, ids));
    expect((await call('DELETE', `${versionsBase(track)}/${second.id}`, team.owner.token)).statusCode).toBe(
      204,
    );
    expect(await rows([onSecond.json().fileId])).toEqual([]);
    expect(await rows([onFirst.fileId])).toHaveLength(1);
    expect((await call('DELETE', `/api/v1/tracks/${track.id}?mode=hard`, team.owner.token)).statusCode).toBe(
      204,
    );
    expect(await rows([onFirst.fileId])).toEqual([]);
  });
});

const versionRoute =
  (build: (team: TestTeam, track: TestTrack) => Promise<{ url: string; payload?: unknown }>) =>
  async (team: TestTeam) =>
    build(team, await ctx.newTrack(team));

const cases: MatrixCase[] = [
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/versions/{versionId}/files/create',
    shareLevel: 'owner',
    build: versionRoute(async (_team, track) => ({
      url: `${filesOf(track)}/create`,
      payload: { audio_file_name: 'matrix.wav' },
    })),
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/versions/{versionId}/files',
    shareLevel: 'owner',
    build: versionRoute(async (team, track) => ({
      url: filesOf(track),
      payload: { fileKey: (await uploadVersionFile(team, track)).fileKey },
    })),
  },
  {
    method: 'DELETE',
    path: '/api/v1/tracks/{id}/versions/{versionId}/files/{fileId}',
    shareLevel: 'owner',
    build: versionRoute(async (team, track) => ({
      url: `${filesOf(track)}/${(await addVersionFile(team, track)).fileId}`,
    })),
  },
];

describeSecurityMatrix(ctx, cases);
