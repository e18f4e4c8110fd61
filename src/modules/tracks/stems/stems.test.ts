import { eq, inArray } from 'drizzle-orm';
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
import { domainEvents, files } from '../../../db/schema/index.ts';

const ctx = useStorageTestContext('local');
const call = callWith(ctx);

const stemsOf = (track: TestTrack, versionId = track.versionId) =>
  `${versionsBase(track)}/${versionId}/stems`;

const fileRows = (ids: number[]) =>
  ctx.database.db.select({ id: files.id, key: files.key }).from(files).where(inArray(files.id, ids));

async function setUp() {
  const team = await ctx.newTeam();
  const track = await ctx.newTrack(team);
  return { team, track, token: team.owner.token, stems: stemsOf(track) };
}

function expectDetails(
  res: { statusCode: number; json(): { code: string; details?: { path: string }[] } },
  path: string,
) {
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe('validation_failed');
  expect(res.json().details?.map((d) => d.path)).toContain(path);
}

describe('stems of a version', () => {
  it('uploads and registers stems, lists them in order with their audio and signed links', async () => {
    const { team, track, token, stems } = await setUp();
    const wav = testWav(0.5);
    const url = await call('POST', `${stems}/upload-url`, token, {
      fileName: 'Drums.wav',
      fileSize: wav.length,
      mediaType: 'audio/wav',
    });
    expect(url.statusCode, url.body).toBe(200);
    const ticket = url.json();
    expect(ticket).toEqual({
      uploadUrl: expect.any(String),
      method: 'PUT',
      headers: expect.objectContaining({ 'content-type': 'audio/wav' }),
      pendingKey: expect.stringMatching(/^pending\//),
      stemKey: ticket.pendingKey,
      expiresAt: expect.any(String),
      resumable: RESUMABLE_TICKET,
    });

    const early = await call('POST', stems, token, { name: 'Drums', stemKey: ticket.stemKey });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('upload_missing');

    expect((await putBytes(ctx, ticket, wav)).status).toBe(200);
    const created = await call('POST', stems, token, {
      name: ' Drums ',
      stemKey: ticket.stemKey,
      instrument: 'drums',
      notes: 'room mics muted',
    });
    expect(created.statusCode, created.body).toBe(201);
    const drums = created.json();
    expect(drums).toMatchObject({
      versionId: track.versionId,
      name: 'Drums',
      instrument: 'drums',
      notes: 'room mics muted',
      position: 0,
      createdBy: team.owner.id,
      file: {
        fileName: 'Drums.wav',
        contentType: 'audio/wav',
        size: wav.length,
        facts: { sampleRate: 44_100, channels: 2, codec: 'PCM' },
        peaks: { status: 'pending' },
        url: expect.any(String),
        downloadUrl: expect.any(String),
      },
    });
    expect(drums.file.facts.durationSeconds).toBeCloseTo(0.5, 2);
    const fetched = await ctx.fetchUrl(drums.file.url);
    expect(fetched.status).toBe(200);
    expect(fetched.body.equals(wav)).toBe(true);

    // The key was used: registering it again finds no upload.
    expect((await call('POST', stems, token, { name: 'Again', stemKey: ticket.stemKey })).statusCode).toBe(
      404,
    );

    const bass = await newStem(ctx, team, track, track.versionId, 'Bass');
    expect(bass.position).toBe(1);
    const listed = await call('GET', stems, token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items.map((s: { id: number }) => s.id)).toEqual([drums.id, bass.id]);
    expect(listed.json().items[0].file).toMatchObject({ fileId: drums.file.fileId, url: expect.any(String) });
    const page = await call('GET', `${stems}?limit=1`, token);
    expect(page.json().items).toHaveLength(1);
    const rest = await call('GET', `${stems}?limit=1&cursor=${page.json().nextCursor}`, token);
    expect(rest.json()).toMatchObject({ items: [{ id: bass.id }], nextCursor: null });

    // Waveform data on the single-stem answer once computed; the list keeps the state only.
    await ctx.runJobs();
    const one = await call('GET', `${stems}/${drums.id}`, token);
    expect(one.statusCode).toBe(200);
    expect(one.json().file.peaks).toMatchObject({ status: 'ready', min: expect.any(Array) });
    const again = (await call('GET', stems, token)).json().items[0];
    expect(again.file.peaks.status).toBe('ready');
    expect(again.file.peaks.min).toBeUndefined();

    const detail = await call('GET', `${versionsBase(track)}/${track.versionId}/detail`, token);
    expect(detail.json().counts.stems).toBe(2);
    const actions = await ctx.database.db
      .select({ action: domainEvents.type })
      .from(domainEvents)
      .where(eq(domainEvents.teamId, team.id));
    expect(actions.map((a) => a.action)).toContain('stem.created');
  });

  it('works with a team API key with the tracks:write scope', async () => {
    const { team, stems } = await setUp();
    const key = await ctx.newApiKey(team, ['tracks:write']);
    const ticket = (await call('POST', `${stems}/upload-url`, key, { fileName: 'keys.flac' })).json();
    expect(ticket.headers['content-type']).toBe('audio/flac');
    const wavTicket = (await call('POST', `${stems}/upload-url`, key, { fileName: 'keys.wav' })).json();
    await putBytes(ctx, wavTicket, testWav(0.1));
    const created = await call('POST', stems, key, { name: 'Keys', stemKey: wavTicket.stemKey });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Keys', createdBy: null });
    expect((await call('GET', stems, key)).json().items).toHaveLength(1);
  });

  it('refuses invalid bodies with the path of the problem', async () => {
    const { token, stems, team, track } = await setUp();
    expectDetails(await call('POST', `${stems}/upload-url`, token, {}), '/body/fileName');
    expectDetails(await call('POST', `${stems}/upload-url`, token, { fileName: ' ' }), '/body/fileName');
    expectDetails(
      await call('POST', `${stems}/upload-url`, token, { fileName: 'a.wav', fileSize: -1 }),
      '/body/fileSize',
    );
    expect(
      (await call('POST', `${stems}/upload-url`, token, { fileName: 'a.wav', colour: 1 })).statusCode,
    ).toBe(400);
    for (const body of [{ fileName: 'lyrics.txt' }, { fileName: 'a.wav', mediaType: 'image/png' }]) {
      const res = await call('POST', `${stems}/upload-url`, token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('unsupported_file_type');
    }
    expectDetails(await call('POST', stems, token, { name: 'x' }), '/body/stemKey');
    expectDetails(await call('POST', stems, token, { name: '', stemKey: 'k' }), '/body/name');
    expect((await call('POST', stems, token, { name: 'x', stemKey: 'k', extra: true })).statusCode).toBe(400);
    const stem = await newStem(ctx, team, track);
    for (const body of [{}, { name: '' }, { name: 5 }, { instrument: 'x'.repeat(101) }, { position: 2 }]) {
      const res = await call('PATCH', `${stems}/${stem.id}`, token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expectDetails(await call('POST', `${stems}/cleanup`, token, {}), '/body/pendingKey');
    expect((await call('GET', `${versionsBase(track)}/${track.versionId}/stems/abc`, token)).statusCode).toBe(
      400,
    );
  });

  it('registers only uploads of this version: other versions, other teams and unknown keys are 404', async () => {
    const { team, track, token, stems } = await setUp();
    const other = await ctx.newVersion(track);
    const ofOtherVersion = await uploadStemBytes(ctx, team, track, other.id);
    const elsewhere = await ctx.newTeam();
    const foreignTrack = await ctx.newTrack(elsewhere);
    const ofOtherTeam = await uploadStemBytes(ctx, elsewhere, foreignTrack, foreignTrack.versionId);
    for (const stemKey of [ofOtherVersion.stemKey, ofOtherTeam.stemKey, `pending/${team.id}/nothing`]) {
      const res = await call('POST', stems, token, { name: 'x', stemKey });
      expect(res.statusCode, stemKey).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    // The right version takes its own key.
    const res = await call('POST', stemsOf(track, other.id), token, {
      name: 'x',
      stemKey: ofOtherVersion.stemKey,
    });
    expect(res.statusCode).toBe(201);
    // A stem is reached only through its own version.
    expect((await call('GET', `${stems}/${res.json().id}`, token)).statusCode).toBe(404);
    expect((await call('DELETE', `${stems}/${res.json().id}`, token)).statusCode).toBe(404);
    // Another team's member sees none of it.
    expect((await call('GET', stems, elsewhere.owner.token)).statusCode).toBe(404);
  });

  it('changes a stem’s fields', async () => {
    const { team, track, token, stems } = await setUp();
    const stem = await newStem(ctx, team, track);
    const res = await call('PATCH', `${stems}/${stem.id}`, token, {
      name: ' Kit ',
      instrument: 'drums',
      notes: 'overheads',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: stem.id, name: 'Kit', instrument: 'drums', notes: 'overheads' });
    expect(res.json().file.fileId).toBe(stem.file.fileId);
    const cleared = await call('PATCH', `${stems}/${stem.id}`, token, { instrument: null, notes: null });
    expect(cleared.json()).toMatchObject({ name: 'Kit', instrument: null, notes: null });
    expect((await call('PATCH', `${stems}/999999`, token, { name: 'x' })).statusCode).toBe(404);
  });

  it('removes a stem’s file on cleanup, keeps the stem, and takes a new upload with PATCH stemKey', async () => {
    const { team, track, token, stems } = await setUp();
    const stem = await newStem(ctx, team, track);
    const [row] = await fileRows([stem.file.fileId]);
    const cleaned = await call('POST', `${stems}/${stem.id}/cleanup`, token);
    expect(cleaned.statusCode, cleaned.body).toBe(200);
    expect(cleaned.json()).toMatchObject({ id: stem.id, name: 'Drums', position: 0, file: null });
    expect(await fileRows([stem.file.fileId])).toEqual([]);
    expect(await ctx.listKeys(row!.key)).toEqual([]);
    // Nothing left to remove: the same answer.
    expect((await call('POST', `${stems}/${stem.id}/cleanup`, token)).json().file).toBeNull();
    expect((await call('GET', stems, token)).json().items[0].file).toBeNull();

    const upload = await uploadStemBytes(ctx, team, track, track.versionId, testWav(0.1), 'retake.wav');
    const attached = await call('PATCH', `${stems}/${stem.id}`, token, { stemKey: upload.stemKey });
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json().file).toMatchObject({ fileName: 'retake.wav' });

    // Replacing a file deletes the previous one.
    const next = await uploadStemBytes(ctx, team, track, track.versionId, testWav(0.1), 'third.wav');
    const replaced = await call('PATCH', `${stems}/${stem.id}`, token, {
      stemKey: next.stemKey,
      name: 'Kit',
    });
    expect(replaced.json()).toMatchObject({ name: 'Kit', file: { fileName: 'third.wav' } });
    expect(await fileRows([attached.json().file.fileId])).toEqual([]);
    expect((await call('POST', `${stems}/999999/cleanup`, token)).statusCode).toBe(404);
    await expectNoOrphans(ctx);
  });

  it('deletes a stem with its file', async () => {
    const { team, track, token, stems } = await setUp();
    const stem = await newStem(ctx, team, track);
    const [row] = await fileRows([stem.file.fileId]);
    expect((await call('DELETE', `${stems}/${stem.id}`, token)).statusCode).toBe(204);
    expect((await call('GET', `${stems}/${stem.id}`, token)).statusCode).toBe(404);
    expect((await call('DELETE', `${stems}/${stem.id}`, token)).statusCode).toBe(404);
    expect(await fileRows([stem.file.fileId])).toEqual([]);
    expect(await ctx.listKeys(row!.key)).toEqual([]);
    expect((await call('GET', stems, token)).json().items).toEqual([]);
  });

  it('discards a pending stem upload of this version only', async () => {
    const { team, track, token, stems } = await setUp();
    const upload = await uploadStemBytes(ctx, team, track, track.versionId);
    const other = await ctx.newVersion(track);
    expect(
      (await call('POST', `${stemsOf(track, other.id)}/cleanup`, token, { pendingKey: upload.pendingKey }))
        .statusCode,
    ).toBe(404);
    const res = await call('POST', `${stems}/cleanup`, token, { pendingKey: upload.pendingKey });
    expect(res.statusCode, res.body).toBe(204);
    expect(await ctx.listKeys(upload.pendingKey)).toEqual([]);
    expect((await call('POST', stems, token, { name: 'x', stemKey: upload.stemKey })).statusCode).toBe(404);
    expect(
      (await call('POST', `${stems}/cleanup`, token, { pendingKey: upload.pendingKey })).statusCode,
    ).toBe(404);
    // A registered key is no pending upload any more.
    const stem = await uploadStemBytes(ctx, team, track, track.versionId);
    expect((await call('POST', stems, token, { name: 'x', stemKey: stem.stemKey })).statusCode).toBe(201);
    expect((await call('POST', `${stems}/cleanup`, token, { pendingKey: stem.pendingKey })).statusCode).toBe(
      404,
    );
    await expectNoOrphans(ctx);
  });

  it('deletes stem files with their version and with a hard-deleted track', async () => {
    const { team, track, token } = await setUp();
    const second = await ctx.newVersion(track);
    const a = await newStem(ctx, team, track, second.id);
    expect((await call('DELETE', `${versionsBase(track)}/${second.id}`, token)).statusCode).toBe(204);
    expect(await fileRows([a.file.fileId])).toEqual([]);

    const b = await newStem(ctx, team, track, track.versionId);
    expect((await call('DELETE', `/api/v1/tracks/${track.id}?mode=hard`, token)).statusCode).toBe(204);
    expect(await fileRows([b.file.fileId])).toEqual([]);
    await ctx.runJobs();
    await expectNoOrphans(ctx);
  });
});

const stemRoute =
  (build: (team: TestTeam, track: TestTrack) => Promise<{ url: string; payload?: unknown }>) =>
  async (team: TestTeam) =>
    build(team, await ctx.newTrack(team));

const withStem = (suffix: string, payload?: object) =>
  stemRoute(async (team, track) => {
    const stem = await newStem(ctx, team, track);
    return { url: `${stemsOf(track)}/${stem.id}${suffix}`, ...(payload ? { payload } : {}) };
  });

const cases: MatrixCase[] = [
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/versions/{versionId}/stems/upload-url',
    shareLevel: 'owner',
    build: stemRoute(async (_team, track) => ({
      url: `${stemsOf(track)}/upload-url`,
      payload: { fileName: 'matrix.wav' },
    })),
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/versions/{versionId}/stems',
    shareLevel: 'owner',
    build: stemRoute(async (team, track) => {
      const { stemKey } = await uploadStemBytes(ctx, team, track, track.versionId);
      return { url: stemsOf(track), payload: { name: 'Matrix', stemKey } };
    }),
  },
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/versions/{versionId}/stems',
    shareLevel: 'read',
    build: stemRoute(async (_team, track) => ({ url: stemsOf(track) })),
  },
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/versions/{versionId}/stems/{stemId}',
    shareLevel: 'read',
    build: withStem(''),
  },
  {
    method: 'PATCH',
    path: '/api/v1/tracks/{id}/versions/{versionId}/stems/{stemId}',
    shareLevel: 'owner',
    build: withStem('', { name: 'Matrix' }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/tracks/{id}/versions/{versionId}/stems/{stemId}',
    shareLevel: 'owner',
    build: withStem(''),
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/versions/{versionId}/stems/{stemId}/cleanup',
    shareLevel: 'owner',
    build: withStem('/cleanup'),
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/versions/{versionId}/stems/cleanup',
    shareLevel: 'owner',
    build: stemRoute(async (team, track) => {
      const { pendingKey } = await uploadStemBytes(ctx, team, track, track.versionId);
      return { url: `${stemsOf(track)}/cleanup`, payload: { pendingKey } };
    }),
  },
];

describeSecurityMatrix(ctx, cases);
