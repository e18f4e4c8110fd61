import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';
import { files } from '../../../db/schema/index.ts';
import { encodeWav, sine } from '../../../media/test-audio.ts';

const ctx = useTestContext();

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  payload?: object,
) => ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

async function trackWithVersions(team: TestTeam, extra = 2) {
  const track = await ctx.newTrack(team);
  const ids = [track.versionId];
  for (let i = 0; i < extra; i++) ids.push((await ctx.newVersion(track)).id);
  return { track, ids, base: `/api/v1/tracks/${track.id}/versions` };
}

/** PUTs bytes to a signed upload URL of this app. */
async function upload(ticket: { uploadUrl: string; headers: Record<string, string> }, bytes: Buffer) {
  const url = new URL(ticket.uploadUrl);
  const res = await ctx.request({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: ticket.headers,
    payload: bytes,
  });
  if (res.statusCode >= 300) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
}

describe('track versions', () => {
  it('creates a version with an upload URL, registers its audio and shows its facts and URLs', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const base = `/api/v1/tracks/${track.id}/versions`;
    const created = await call('POST', `${base}/create`, team.owner.token, { audio_file_name: 'take 2.wav' });
    expect(created.statusCode, created.body).toBe(201);
    const version = created.json();
    expect(version).toMatchObject({
      name: 'Version 2',
      audioFileName: 'take 2.wav',
      audio: null,
      upload: { method: 'PUT', fileKey: expect.any(String) },
    });
    const register = (fileKey: string) =>
      call('PUT', `${base}/${version.id}/audio`, team.owner.token, { fileKey });
    expect((await register(version.upload.fileKey)).statusCode).toBe(409);
    expect((await register('pending/1/nothing')).statusCode).toBe(404);

    await upload(
      version.upload,
      encodeWav(sine({ sampleRate: 8000, seconds: 2, amplitude: 0.5 }), 8000, 'pcm16'),
    );
    const res = await register(version.upload.fileKey);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      durationSeconds: 2,
      audio: {
        fileName: 'take 2.wav',
        contentType: 'audio/wav',
        facts: { durationSeconds: 2, sampleRate: 8000, channels: 1 },
        peaks: { status: 'pending' },
        url: expect.any(String),
        downloadUrl: expect.any(String),
      },
    });
    const stream = new URL(res.json().audio.url);
    const fetched = await ctx.request({ method: 'GET', url: stream.pathname + stream.search });
    expect(fetched.statusCode).toBe(200);
    // Timestamped comments are now checked against the known duration.
    const comments = `${base}/${version.id}/comments`;
    expect(
      (await call('POST', comments, team.owner.token, { comment: 'x', atSeconds: 2.5 })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', comments, team.owner.token, { comment: 'x', atSeconds: 1.5 })).statusCode,
    ).toBe(201);

    const listed = (await call('GET', base, team.owner.token)).json().items;
    expect(listed.map((v: { id: number }) => v.id)).toEqual([track.versionId, version.id]);
    for (const body of [{}, { audio_file_name: '' }, { audio_file_name: 'a.wav', name: 'x' }]) {
      expect(
        (await call('POST', `${base}/create`, team.owner.token, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    const text = await call('POST', `${base}/create`, team.owner.token, { audio_file_name: 'lyrics.txt' });
    expect(text.statusCode).toBe(400);
    expect((await call('GET', base, team.owner.token)).json().items).toHaveLength(2);

    const assets = await call('GET', `/api/v1/tracks/${track.id}/assets`, team.owner.token);
    expect(assets.statusCode).toBe(200);
    expect(assets.json()).toEqual({
      items: [
        expect.objectContaining({
          fileId: res.json().audio.fileId,
          role: 'version_audio',
          versionId: version.id,
          fileName: 'take 2.wav',
          downloadUrl: expect.any(String),
        }),
      ],
      nextCursor: null,
    });

    // A hard delete of the track removes its audio files too.
    const fileId = res.json().audio.fileId;
    const filesOf = () => ctx.database.db.select({ id: files.id }).from(files).where(eq(files.id, fileId));
    expect(await filesOf()).toHaveLength(1);
    expect((await call('DELETE', `/api/v1/tracks/${track.id}?mode=hard`, team.owner.token)).statusCode).toBe(
      204,
    );
    expect(await filesOf()).toEqual([]);
  });

  it('lists versions in order with keyset pages', async () => {
    const team = await ctx.newTeam();
    const { ids, base } = await trackWithVersions(team, 2);
    const first = await call('GET', `${base}?limit=2`, team.owner.token);
    expect(first.statusCode).toBe(200);
    expect(first.json().items.map((v: { id: number }) => v.id)).toEqual(ids.slice(0, 2));
    const next = await call('GET', `${base}?limit=2&cursor=${first.json().nextCursor}`, team.owner.token);
    expect(next.json()).toMatchObject({ items: [{ id: ids[2] }], nextCursor: null });
    expect(first.json().items[0]).toMatchObject({ name: 'Version 1', isFinal: false, reviewState: 'none' });
  });

  it('shows a version’s detail and changes its metadata', async () => {
    const team = await ctx.newTeam();
    const { ids, base } = await trackWithVersions(team, 0);
    const detail = await call('GET', `${base}/${ids[0]}/detail`, team.owner.token);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      id: ids[0],
      review: null,
      counts: { comments: 0, todos: 0, openTodos: 0 },
    });
    const patched = await call('PATCH', `${base}/${ids[0]}/metadata`, team.owner.token, {
      name: ' Rough mix ',
      notes: 'louder vocals',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Rough mix', notes: 'louder vocals' });
    for (const body of [{}, { name: '' }, { name: 5 }, { colour: 'x' }]) {
      const res = await call('PATCH', `${base}/${ids[0]}/metadata`, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('keeps one final version per track', async () => {
    const team = await ctx.newTeam();
    const { ids, base } = await trackWithVersions(team, 1);
    expect((await call('PATCH', `${base}/${ids[0]}/final`, team.owner.token)).json().isFinal).toBe(true);
    const second = await call('PATCH', `${base}/${ids[1]}/final`, team.owner.token);
    expect(second.statusCode).toBe(200);
    const list = (await call('GET', base, team.owner.token)).json().items;
    expect(list.map((v: { isFinal: boolean }) => v.isFinal)).toEqual([false, true]);
  });

  it('deletes a version but never the last one', async () => {
    const team = await ctx.newTeam();
    const { ids, base } = await trackWithVersions(team, 1);
    expect((await call('DELETE', `${base}/${ids[1]}`, team.owner.token)).statusCode).toBe(204);
    expect((await call('GET', `${base}/${ids[1]}/detail`, team.owner.token)).statusCode).toBe(404);
    const last = await call('DELETE', `${base}/${ids[0]}`, team.owner.token);
    expect(last.statusCode).toBe(409);
  });

  it('does not reach a version through another track', async () => {
    const team = await ctx.newTeam();
    const a = await trackWithVersions(team, 0);
    const b = await trackWithVersions(team, 0);
    expect((await call('GET', `${a.base}/${b.ids[0]}/detail`, team.owner.token)).statusCode).toBe(404);
    expect((await call('GET', `${a.base}/abc/detail`, team.owner.token)).statusCode).toBe(400);
  });

  it('reorders versions as a permutation (400 for duplicates, foreign or missing ids)', async () => {
    const team = await ctx.newTeam();
    const { ids, base } = await trackWithVersions(team, 2);
    const other = await trackWithVersions(team, 0);
    const [a, b, c] = ids as [number, number, number];
    const ok = await call('PATCH', `${base}/reorder`, team.owner.token, {
      versions: [
        { versionId: a, order: 2 },
        { versionId: b, order: 0 },
        { versionId: c, order: 1 },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().versionIds).toEqual([b, c, a]);
    const bad = [
      [
        { versionId: a, order: 0 },
        { versionId: a, order: 1 },
        { versionId: c, order: 2 },
      ],
      [
        { versionId: a, order: 0 },
        { versionId: b, order: 0 },
        { versionId: c, order: 2 },
      ],
      [
        { versionId: a, order: 0 },
        { versionId: b, order: 1 },
        { versionId: other.ids[0]!, order: 2 },
      ],
      [
        { versionId: a, order: 0 },
        { versionId: b, order: 1 },
      ],
      [],
    ];
    for (const versions of bad) {
      const res = await call('PATCH', `${base}/reorder`, team.owner.token, { versions });
      expect(res.statusCode, JSON.stringify(versions)).toBe(400);
    }
    const list = (await call('GET', base, team.owner.token)).json().items;
    expect(list.map((v: { id: number }) => v.id)).toEqual([b, c, a]);
  });
});

const versionUrl = (suffix: string, payload?: unknown) => async (team: TestTeam) => {
  const track = await ctx.newTrack(team);
  await ctx.newVersion(track);
  const url = `/api/v1/tracks/${track.id}/versions${suffix.replace(':v', String(track.versionId))}`;
  return { url, ...(payload ? { payload } : {}) };
};

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/assets',
    shareLevel: 'read',
    build: async (team) => ({ url: `/api/v1/tracks/${(await ctx.newTrack(team)).id}/assets` }),
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/versions/create',
    shareLevel: 'owner',
    build: versionUrl('/create', { audio_file_name: 'matrix.wav' }),
  },
  {
    method: 'PUT',
    path: '/api/v1/tracks/{id}/versions/{versionId}/audio',
    shareLevel: 'owner',
    build: async (team) => {
      const track = await ctx.newTrack(team);
      const base = `/api/v1/tracks/${track.id}/versions`;
      const created = await call('POST', `${base}/create`, team.owner.token, { audio_file_name: 'm.wav' });
      const version = created.json();
      await upload(
        version.upload,
        encodeWav(sine({ sampleRate: 8000, seconds: 0.1, amplitude: 0.5 }), 8000, 'pcm16'),
      );
      return { url: `${base}/${version.id}/audio`, payload: { fileKey: version.upload.fileKey } };
    },
  },
  { method: 'GET', path: '/api/v1/tracks/{id}/versions', shareLevel: 'read', build: versionUrl('') },
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/versions/{versionId}/detail',
    shareLevel: 'read',
    build: versionUrl('/:v/detail'),
  },
  {
    method: 'PATCH',
    path: '/api/v1/tracks/{id}/versions/{versionId}/metadata',
    shareLevel: 'owner',
    build: versionUrl('/:v/metadata', { name: 'Matrix' }),
  },
  {
    method: 'PATCH',
    path: '/api/v1/tracks/{id}/versions/{versionId}/final',
    shareLevel: 'owner',
    build: versionUrl('/:v/final'),
  },
  {
    method: 'DELETE',
    path: '/api/v1/tracks/{id}/versions/{versionId}',
    shareLevel: 'owner',
    build: versionUrl('/:v'),
  },
  {
    method: 'PATCH',
    path: '/api/v1/tracks/{id}/versions/reorder',
    shareLevel: 'owner',
    build: async (team) => {
      const track = await ctx.newTrack(team);
      return {
        url: `/api/v1/tracks/${track.id}/versions/reorder`,
        payload: { versions: [{ versionId: track.versionId, order: 0 }] },
      };
    },
  },
];

describeSecurityMatrix(ctx, cases);
