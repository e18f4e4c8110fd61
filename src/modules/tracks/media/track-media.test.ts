import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes, RESUMABLE_TICKET, testWav } from '../../../../test/helpers/file-flow.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import {
  expectRefusals,
  type Refusal,
  tinyPng,
  uploadAttachment,
  uploadCover,
  uploadMedia,
  uploadTrackFile,
} from '../../../../test/helpers/track-files.ts';
import { files, pendingUploads } from '../../../db/schema/index.ts';

const ctx = useStorageTestContext('local');

const mediaUrl = (trackId: number, suffix = '') => `/api/v1/tracks/${trackId}/media${suffix}`;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

const pdf = Buffer.from('%PDF-1.4\n% a lyric sheet\n%%EOF\n');

describe('track media', () => {
  it('starts an upload of any kind, told from the media type or the file name, and confirms it', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const started = await call('POST', mediaUrl(track.id), team.owner.token, {
      fileName: ' Lyrics.pdf ',
      fileSize: pdf.length,
    });
    expect(started.statusCode, started.body).toBe(201);
    const ticket = started.json();
    expect(ticket).toEqual({
      id: expect.any(Number),
      trackId: track.id,
      status: 'pending',
      fileName: 'Lyrics.pdf',
      fileSize: pdf.length,
      mediaType: 'application/pdf',
      kind: 'document',
      createdAt: expect.any(String),
      uploadUrl: expect.any(String),
      method: 'PUT',
      headers: expect.objectContaining({ 'content-type': 'application/pdf' }),
      fileKey: expect.stringMatching(new RegExp(`^pending/${team.id}/`)),
      expiresAt: expect.any(String),
      resumable: RESUMABLE_TICKET,
    });
    const early = await call('POST', mediaUrl(track.id, `/${ticket.id}/added`), team.owner.token);
    expect(early.json().code).toBe('upload_missing');
    expect((await putBytes(ctx, ticket, pdf)).status).toBe(200);
    const added = await call('POST', mediaUrl(track.id, `/${ticket.id}/added`), team.owner.token, {});
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({
      id: ticket.id,
      trackId: track.id,
      status: 'ready',
      kind: 'document',
    });
    const fetched = await ctx.fetchUrl(added.json().downloadUrl);
    expect(fetched.body.equals(pdf)).toBe(true);
    expect(fetched.headers.get('content-disposition')).toContain('attachment');

    const wav = testWav(0.25);
    const audio = await uploadMedia(ctx, team, track.id, wav, 'bounce.wav', 'audio/wav');
    expect(audio).toMatchObject({
      kind: 'audio',
      audio: { sampleRate: 44_100, channels: 2 },
      peaks: { status: 'pending' },
    });
    const art = await uploadMedia(ctx, team, track.id, tinyPng(), 'artwork.png', 'image');
    expect(art).toMatchObject({ kind: 'image', mediaType: 'image/png' });
    const clip = Buffer.concat([Buffer.from('0000001866747970', 'hex'), Buffer.alloc(64, 3)]);
    const teaser = await uploadMedia(ctx, team, track.id, clip, 'Teaser.MOV');
    expect(teaser).toMatchObject({ kind: 'video', mediaType: 'video/quicktime', fileSize: clip.length });
    const video = await uploadMedia(ctx, team, track.id, clip, 'clip.webm', 'video/webm');
    expect(video).toMatchObject({ kind: 'video', mediaType: 'video/webm' });
    // Confirming again answers the same media.
    const again = await call('POST', mediaUrl(track.id, `/${art.id}/added`), team.owner.token);
    expect(again.json().id).toBe(art.id);
  });

  it('lists registered media newest first, page by page; pending uploads are left out', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const member = await ctx.addMember(team);
    const ids: number[] = [];
    for (const name of ['a.txt', 'b.txt', 'c.txt'])
      ids.push((await uploadMedia(ctx, team, track.id, Buffer.from(`notes ${name}`), name)).id);
    await call('POST', mediaUrl(track.id), team.owner.token, { fileName: 'd.txt' });
    const first = await call('GET', mediaUrl(track.id, '?limit=2'), member.token);
    expect(first.statusCode).toBe(200);
    expect(first.json().items.map((m: { id: number }) => m.id)).toEqual([ids[2], ids[1]]);
    expect(first.json().items[0]).toMatchObject({
      status: 'ready',
      kind: 'document',
      peaks: { status: 'none' },
    });
    const next = await call(
      'GET',
      mediaUrl(track.id, `?limit=2&cursor=${first.json().nextCursor}`),
      member.token,
    );
    expect(next.json()).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    expect((await call('GET', mediaUrl(track.id, '?cursor=nonsense'), member.token)).statusCode).toBe(400);
  });

  it('deletes registered and pending media with their bytes', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const media = await uploadMedia(ctx, team, track.id, pdf, 'sheet.pdf');
    const removed = await call('DELETE', mediaUrl(track.id, `/${media.id}`), team.owner.token);
    expect(removed.statusCode).toBe(204);
    expect((await ctx.fetchUrl(media.url)).status).toBe(404);
    expect((await call('DELETE', mediaUrl(track.id, `/${media.id}`), team.owner.token)).statusCode).toBe(404);
    const { ticket } = await uploadTrackFile(
      ctx,
      team.owner.token,
      mediaUrl(track.id),
      { fileName: 'p.txt' },
      pdf,
      {
        confirm: false,
      },
    );
    expect(await ctx.listKeys(ticket.fileKey)).toEqual([ticket.fileKey]);
    expect((await call('DELETE', mediaUrl(track.id, `/${ticket.id}`), team.owner.token)).statusCode).toBe(
      204,
    );
    expect(await ctx.listKeys(ticket.fileKey)).toEqual([]);
    expect((await call('POST', mediaUrl(track.id, `/${ticket.id}/added`), team.owner.token)).statusCode).toBe(
      404,
    );
    expect((await call('GET', mediaUrl(track.id), team.owner.token)).json().items).toEqual([]);
    await expectNoOrphans(ctx);
  });

  it('refuses unknown types and malformed bodies with clear codes and paths', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const cases: Refusal[] = [
      [{ fileName: 'setup.exe' }, 400, 'unsupported_file_type'],
      [{ fileName: 'noextension' }, 400, 'unsupported_file_type'],
      [{ fileName: 'x.mid', mediaType: 'audio/midi' }, 400, 'unsupported_file_type'],
      [{ fileName: 'x.flv', mediaType: 'video/x-flv' }, 400, 'unsupported_file_type'],
      [{ fileName: 'x.mp4', fileSize: 4097 * 1024 * 1024 }, 413, 'payload_too_large'],
      [{ fileName: 'x.pdf', mediaType: 'not a type' }, 400, 'validation_failed', '/body/mediaType'],
      [{}, 400, 'validation_failed', '/body/fileName'],
      [{ fileName: ' ' }, 400, 'validation_failed', '/body/fileName'],
      [{ fileName: 'x.pdf', fileSize: -5 }, 400, 'validation_failed', '/body/fileSize'],
      [{ fileName: 'x.pdf', kind: 'document' }, 400, 'validation_failed', '/body'],
      [{ fileName: 'x.pdf', fileSize: 51 * 1024 * 1024 }, 413, 'payload_too_large'],
    ];
    await expectRefusals(ctx, team.owner.token, mediaUrl(track.id), cases);
    const extra = await call('POST', mediaUrl(track.id, '/1/added'), team.owner.token, { force: true });
    expect(extra.statusCode).toBe(400);
    expect((await call('DELETE', mediaUrl(track.id, '/0'), team.owner.token)).statusCode).toBe(400);
  });

  it("never shows or changes another team's media (404)", async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const media = await uploadMedia(ctx, team, track.id, pdf, 'mine.pdf');
    const pending = (await call('POST', mediaUrl(track.id), team.owner.token, { fileName: 'p.txt' })).json();
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['POST', '', { fileName: 'x.pdf' }],
      ['POST', `/${pending.id}/added`, undefined],
      ['DELETE', `/${media.id}`, undefined],
    ] as const) {
      const res = await call(method, mediaUrl(track.id, suffix), other.owner.token, payload);
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
    // Nor is a media of one track reachable through another track of the same team.
    const sibling = await ctx.newTrack(team);
    expect((await call('DELETE', mediaUrl(sibling.id, `/${media.id}`), team.owner.token)).statusCode).toBe(
      404,
    );
    expect((await call('GET', mediaUrl(track.id), team.owner.token)).json().items).toHaveLength(1);
  });
});

describe('every file of a track', () => {
  /** A track with a file of every kind the tracks area keeps, each uploaded through the API. */
  async function fullTrack(team: TestTeam) {
    const track = await ctx.newTrack(team);
    const token = team.owner.token;
    const versionUrl = `/api/v1/tracks/${track.id}/versions/${track.versionId}`;
    const wav = testWav(0.2);
    const version = (
      await call('POST', `/api/v1/tracks/${track.id}/versions/create`, token, { audio_file_name: 'v2.wav' })
    ).json();
    expect((await putBytes(ctx, version.upload, wav)).status).toBe(200);
    const audio = await call('PUT', `/api/v1/tracks/${track.id}/versions/${version.id}/audio`, token, {
      fileKey: version.upload.fileKey,
    });
    expect(audio.statusCode, audio.body).toBe(200);
    const stemTicket = (
      await call('POST', `${versionUrl}/stems/upload-url`, token, { fileName: 'drums.wav' })
    ).json();
    expect((await putBytes(ctx, stemTicket, wav)).status).toBe(200);
    const stem = await call('POST', `${versionUrl}/stems`, token, {
      name: 'Drums',
      stemKey: stemTicket.stemKey,
    });
    expect(stem.statusCode, stem.body).toBe(201);
    const cover = await uploadCover(ctx, team, track.id);
    const media = await uploadMedia(ctx, team, track.id, pdf, 'sheet.pdf');
    const upload = await uploadAttachment(ctx, token, versionUrl, tinyPng(5));
    const comment = await call('POST', `${versionUrl}/comments/with-attachments`, token, {
      comment: 'see picture',
      attachments: [upload.fileKey],
    });
    expect(comment.statusCode, comment.body).toBe(201);
    return {
      track,
      version2: version.id as number,
      ids: {
        cover: cover.id,
        media: media.id,
        audio: audio.json().audio.fileId as number,
        attachment: comment.json().attachments[0].id as number,
      },
      commentId: comment.json().id as number,
    };
  }

  it('lists covers, media, version audio, stems and comment attachments in assets', async () => {
    const team = await ctx.newTeam();
    const { track, version2, ids, commentId } = await fullTrack(team);
    const res = await call('GET', `/api/v1/tracks/${track.id}/assets`, team.owner.token);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { fileId: number; role: string; versionId: number | null }[];
    expect(items.map((a) => [a.role, a.versionId])).toEqual([
      ['cover', null],
      ['media', null],
      ['stem', track.versionId],
      ['comment_attachment', track.versionId],
      ['version_audio', version2],
    ]);
    expect(items.find((a) => a.role === 'cover')).toMatchObject({ fileId: ids.cover, commentId: null });
    expect(items.find((a) => a.role === 'comment_attachment')).toMatchObject({
      fileId: ids.attachment,
      commentId,
      url: expect.any(String),
      downloadUrl: expect.any(String),
    });
    expect(res.json().nextCursor).toBeNull();
  });

  it('removes every file of the track and its bytes on a hard delete', async () => {
    const team = await ctx.newTeam();
    const { track } = await fullTrack(team);
    const ofTeam = () =>
      ctx.database.db.select({ id: files.id }).from(files).where(eq(files.teamId, team.id));
    // Cover, media, the second version's audio, a stem and a comment attachment.
    expect(await ofTeam()).toHaveLength(5);
    const deleted = await call('DELETE', `/api/v1/tracks/${track.id}?mode=hard`, team.owner.token);
    expect(deleted.statusCode).toBe(204);
    expect(await ofTeam()).toEqual([]);
    expect(await ctx.listKeys(`teams/${team.id}/`)).toEqual([]);
    await expectNoOrphans(ctx);
  });

  it('discards uploads still pending for a deleted version or track: bytes gone, URLs unusable', async () => {
    const team = await ctx.newTeam();
    const token = team.owner.token;
    const { track, version2 } = await fullTrack(team);
    const pendingOfTeam = () =>
      ctx.database.db
        .select({ key: pendingUploads.key, ownerType: pendingUploads.ownerType })
        .from(pendingUploads)
        .where(eq(pendingUploads.teamId, team.id));
    const versionUrl = (id: number) => `/api/v1/tracks/${track.id}/versions/${id}`;
    const stemOf = async (versionId: number) => {
      const ticket = (
        await call('POST', `${versionUrl(versionId)}/stems/upload-url`, token, { fileName: 'bass.wav' })
      ).json();
      expect((await putBytes(ctx, ticket, testWav(0.1))).status).toBe(200);
      return ticket as { stemKey: string };
    };
    // Uploaded, never registered: a stem and a comment attachment of version 2, a cover of the track.
    const stem = await stemOf(version2);
    await uploadAttachment(ctx, token, versionUrl(version2), tinyPng(9));
    const cover = await uploadTrackFile(
      ctx,
      token,
      `/api/v1/tracks/${track.id}/covers`,
      { fileName: 'late.png' },
      tinyPng(7),
      { confirm: false },
    );
    const before = (await pendingOfTeam()).length;
    expect(await ctx.listKeys(`pending/${team.id}/`)).toHaveLength(3);

    expect((await call('DELETE', versionUrl(version2), token)).statusCode).toBe(204);
    const afterVersion = await pendingOfTeam();
    expect(afterVersion.map((p) => p.ownerType)).not.toContain('version_stem');
    expect(afterVersion.map((p) => p.ownerType)).not.toContain('comment_upload');
    expect(afterVersion.length).toBe(before - 2);
    expect(await ctx.listKeys(`pending/${team.id}/`)).toHaveLength(1);
    const lateStem = await call('POST', `${versionUrl(track.versionId)}/stems`, token, {
      name: 'Bass',
      stemKey: stem.stemKey,
    });
    expect(lateStem.statusCode).toBeGreaterThanOrEqual(400);

    expect((await call('DELETE', `/api/v1/tracks/${track.id}?mode=hard`, token)).statusCode).toBe(204);
    expect(await pendingOfTeam()).toEqual([]);
    const added = await call('POST', `/api/v1/tracks/${track.id}/covers/${cover.ticket.id}/added`, token);
    expect(added.statusCode).toBe(404);
    expect(await ctx.listKeys(`teams/${team.id}/`)).toEqual([]);
    expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
    await expectNoOrphans(ctx);
  });

  it('keeps the files of a soft-deleted track (it may be restored)', async () => {
    const team = await ctx.newTeam();
    const { track, ids } = await fullTrack(team);
    expect((await call('DELETE', `/api/v1/tracks/${track.id}`, team.owner.token)).statusCode).toBe(204);
    const kept = await ctx.database.db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.teamId, team.id), inArray(files.id, [ids.cover, ids.media, ids.attachment])));
    expect(kept).toHaveLength(3);
  });
});

const P = '/api/v1/tracks/{id}/media';
const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: P,
    shareLevel: 'read',
    build: async (team) => ({ url: mediaUrl((await ctx.newTrack(team)).id) }),
  },
  {
    method: 'POST',
    path: P,
    shareLevel: 'owner',
    build: async (team) => ({ url: mediaUrl((await ctx.newTrack(team)).id), payload: { fileName: 'n.txt' } }),
  },
  {
    method: 'POST',
    path: `${P}/{mediaId}/added`,
    shareLevel: 'owner',
    build: async (team) => {
      const track = await ctx.newTrack(team);
      const { ticket } = await uploadTrackFile(
        ctx,
        team.owner.token,
        mediaUrl(track.id),
        { fileName: 'n.txt' },
        pdf,
        {
          confirm: false,
        },
      );
      return { url: mediaUrl(track.id, `/${ticket.id}/added`) };
    },
  },
  {
    method: 'DELETE',
    path: `${P}/{mediaId}`,
    shareLevel: 'owner',
    build: async (team) => {
      const track = await ctx.newTrack(team);
      const media = await uploadMedia(ctx, team, track.id, pdf, 'n.pdf');
      return { url: mediaUrl(track.id, `/${media.id}`) };
    },
  },
];

describeSecurityMatrix(ctx, cases);
