import { describe, expect, it } from 'vitest';
import {
  confirmMedia,
  putBytes,
  RESUMABLE_TICKET,
  startMedia,
  testWav,
  uploadMedia,
} from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { encodeFlac, encodeMp3, sine } from '../../media/test-audio.ts';

const ctx = useStorageTestContext('local', { env: { MAX_DOCUMENT_BYTES: '100000' } });

const mediaUrl = (teamId: number, suffix = '') => `/api/v1/teams/${teamId}/media${suffix}`;

describe('POST /api/v1/teams/{id}/media', () => {
  it('answers the pending media with an upload URL naming its key fileKey', async () => {
    const team = await ctx.newTeam();
    const res = await startMedia(ctx, team, {
      fileName: ' Setlist.pdf ',
      fileSize: 1234,
      mediaType: 'application/pdf',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(Number),
      teamId: team.id,
      status: 'pending',
      fileName: 'Setlist.pdf',
      fileSize: 1234,
      mediaType: 'application/pdf',
      kind: 'document',
      createdAt: expect.any(String),
      uploadUrl: expect.stringContaining('/api/v1/files/upload?token='),
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      fileKey: expect.stringMatching(new RegExp(`^pending/${team.id}/`)),
      expiresAt: expect.any(String),
      resumable: RESUMABLE_TICKET,
    });
    const pending = await ctx.request({
      method: 'GET',
      url: mediaUrl(team.id, `/${body.id}`),
      token: team.owner.token,
    });
    expect(pending.json()).toMatchObject({ id: body.id, status: 'pending' });
  });

  it('takes a kind instead of a media type, telling the type from the file name', async () => {
    const team = await ctx.newTeam();
    const res = await startMedia(ctx, team, { fileName: 'cover.JPG', fileSize: 10, mediaType: 'image' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ mediaType: 'image/jpeg', kind: 'image' });
    const unknown = await startMedia(ctx, team, { fileName: 'cover', fileSize: 10, mediaType: 'image' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('unsupported_file_type');
  });

  it('refuses types its kind does not accept, bad fields and oversize files with clear codes', async () => {
    const team = await ctx.newTeam();
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { fileName: 'x.exe', fileSize: 10, mediaType: 'application/x-msdownload' },
        400,
        'unsupported_file_type',
      ],
      [{ fileName: 'x.mid', fileSize: 10, mediaType: 'audio/midi' }, 400, 'unsupported_file_type'],
      [{ fileName: 'x.pdf', fileSize: 10, mediaType: 'not a type' }, 400, 'validation_failed'],
      [{ fileName: 'x.pdf', fileSize: -1, mediaType: 'application/pdf' }, 400, 'validation_failed'],
      [{ fileName: '', fileSize: 1, mediaType: 'application/pdf' }, 400, 'validation_failed'],
      [{ fileName: 'x.pdf', fileSize: 1, mediaType: 'application/pdf', extra: 1 }, 400, 'validation_failed'],
      [{ fileName: 'x.pdf', fileSize: 100_001, mediaType: 'application/pdf' }, 413, 'payload_too_large'],
    ];
    for (const [payload, status, code] of cases) {
      const res = await ctx.request({
        method: 'POST',
        url: mediaUrl(team.id),
        token: team.owner.token,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().code, JSON.stringify(payload)).toBe(code);
    }
  });
});

describe('the media library', () => {
  it('lists registered media newest first, page by page, without waveform data', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const ids: number[] = [];
    for (const name of ['a.txt', 'b.txt', 'c.txt']) {
      ids.push((await uploadMedia(ctx, team, Buffer.from(`notes ${name}`), name, 'text/plain')).id);
    }
    // A pending upload is not in the library yet.
    await startMedia(ctx, team, { fileName: 'd.txt', fileSize: 3, mediaType: 'text/plain' });
    const first = await ctx.request({
      method: 'GET',
      url: mediaUrl(team.id, '?limit=2'),
      token: member.token,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().items.map((m: { id: number }) => m.id)).toEqual([ids[2], ids[1]]);
    expect(first.json().items[0]).toMatchObject({
      status: 'ready',
      kind: 'document',
      peaks: { status: 'none' },
    });
    const second = await ctx.request({
      method: 'GET',
      url: mediaUrl(team.id, `?limit=2&cursor=${first.json().nextCursor}`),
      token: member.token,
    });
    expect(second.json()).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
  });

  it('lets any member upload, but only owners and admins delete', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const admin = await ctx.addMember(team, 'admin');
    const asMember = { ...team, owner: member };
    const media = await uploadMedia(ctx, asMember, Buffer.from('by a member'), 'm.txt', 'text/plain');
    const refused = await ctx.request({
      method: 'DELETE',
      url: mediaUrl(team.id, `/${media.id}`),
      token: member.token,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('forbidden');
    const deleted = await ctx.request({
      method: 'DELETE',
      url: mediaUrl(team.id, `/${media.id}`),
      token: admin.token,
    });
    expect(deleted.statusCode).toBe(204);
    const again = await ctx.request({
      method: 'DELETE',
      url: mediaUrl(team.id, `/${media.id}`),
      token: admin.token,
    });
    expect(again.statusCode).toBe(404);
  });

  it('deletes a pending upload and its bytes', async () => {
    const team = await ctx.newTeam();
    const created = (
      await startMedia(ctx, team, { fileName: 'p.txt', fileSize: 4, mediaType: 'text/plain' })
    ).json();
    expect((await putBytes(ctx, created, Buffer.from('abcd'))).status).toBe(200);
    expect(await ctx.listKeys(created.fileKey)).toEqual([created.fileKey]);
    const res = await ctx.request({
      method: 'DELETE',
      url: mediaUrl(team.id, `/${created.id}`),
      token: team.owner.token,
    });
    expect(res.statusCode).toBe(204);
    expect(await ctx.listKeys(created.fileKey)).toEqual([]);
    expect((await confirmMedia(ctx, team, created.id)).statusCode).toBe(404);
  });

  it("never shows or registers another team's media (404)", async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam();
    const media = await uploadMedia(ctx, team, Buffer.from('mine'), 'mine.txt', 'text/plain');
    const created = (
      await startMedia(ctx, team, { fileName: 'p.txt', fileSize: 1, mediaType: 'text/plain' })
    ).json();
    for (const [method, suffix] of [
      ['GET', `/${media.id}`],
      ['DELETE', `/${media.id}`],
      ['POST', `/${created.id}/added`],
    ] as const) {
      const res = await ctx.request({ method, url: mediaUrl(other.id, suffix), token: other.owner.token });
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
  });

  it('reads audio facts at registration and draws waveform peaks in the background', async () => {
    const team = await ctx.newTeam();
    const stereo = sine({ sampleRate: 44_100, seconds: 1, frequency: 500, amplitude: 0.5, channels: 2 });
    const uploads = {
      wav: await uploadMedia(ctx, team, testWav(1), 'take.wav', 'audio/wav'),
      flac: await uploadMedia(ctx, team, await encodeFlac(stereo, 44_100, 16), 'take.flac', 'audio/flac'),
      mp3: await uploadMedia(ctx, team, encodeMp3(stereo, 44_100, 128), 'take.mp3', 'audio/mpeg'),
      broken: await uploadMedia(
        ctx,
        team,
        Buffer.from('not audio at all '.repeat(50)),
        'broken.mp3',
        'audio/mpeg',
      ),
    };
    expect(uploads.flac.audio).toMatchObject({
      codec: 'FLAC',
      sampleRate: 44_100,
      channels: 2,
      lossless: true,
    });
    expect(uploads.mp3.audio).toMatchObject({ sampleRate: 44_100, channels: 2, lossless: false });
    expect(uploads.mp3.audio.codec).toMatch(/MPEG/);
    expect(uploads.broken).toMatchObject({ status: 'ready', audio: null, peaks: { status: 'pending' } });

    await ctx.runJobs();

    for (const name of ['wav', 'flac', 'mp3'] as const) {
      const res = await ctx.request({
        method: 'GET',
        url: mediaUrl(team.id, `/${uploads[name].id}`),
        token: team.owner.token,
      });
      const peaks = res.json().peaks;
      expect(peaks, name).toMatchObject({ status: 'ready', bucketCount: 1000 });
      expect(peaks.durationSeconds, name).toBeGreaterThan(0.9);
      expect(Math.max(...peaks.max), name).toBeCloseTo(0.5, 1);
      expect(Math.min(...peaks.min), name).toBeCloseTo(-0.5, 1);
    }
    const broken = await ctx.request({
      method: 'GET',
      url: mediaUrl(team.id, `/${uploads.broken.id}`),
      token: team.owner.token,
    });
    expect(broken.json()).toMatchObject({
      status: 'ready',
      peaks: { status: 'failed', reason: expect.any(String) },
    });
    const list = await ctx.request({ method: 'GET', url: mediaUrl(team.id), token: team.owner.token });
    const listed = list.json().items.find((m: { id: number }) => m.id === uploads.wav.id);
    expect(listed.peaks).toEqual({ status: 'ready', bucketCount: 1000, durationSeconds: expect.any(Number) });
  });
});
