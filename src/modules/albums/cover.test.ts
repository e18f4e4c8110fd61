import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes, RESUMABLE_TICKET } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { domainEvents, pendingUploads } from '../../db/schema/index.ts';

const ctx = useStorageTestContext('local');
const { newAlbum, getAlbum } = albumHelpers(ctx);

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(300, 9)]);

const uploadUrl = (albumId: number, token: string, fileName = 'cover.png') =>
  ctx.request({ method: 'POST', url: `/api/v1/albums/${albumId}/cover`, token, payload: { fileName } });
const setCover = (albumId: number, token: string, fileKey: string) =>
  ctx.request({ method: 'PUT', url: `/api/v1/albums/${albumId}/cover`, token, payload: { fileKey } });
const deleteCover = (albumId: number, token: string) =>
  ctx.request({ method: 'DELETE', url: `/api/v1/albums/${albumId}/cover`, token });

async function uploadCover(team: TestTeam, albumId: number, token = team.owner.token, bytes = PNG) {
  const ticket = (await uploadUrl(albumId, token)).json();
  expect((await putBytes(ctx, ticket, bytes)).status).toBe(200);
  const res = await setCover(albumId, token, ticket.fileKey);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('the album cover', () => {
  it('uploads in two steps and shows on the album with signed links', async () => {
    const team = await ctx.newTeam();
    const album = await newAlbum(team);
    const res = await uploadUrl(album.id, team.owner.token);
    expect(res.statusCode, res.body).toBe(200);
    const ticket = res.json();
    expect(ticket).toEqual({
      uploadUrl: expect.stringContaining('/api/v1/files/upload?token='),
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      fileKey: expect.stringMatching(/^pending\//),
      expiresAt: expect.any(String),
      resumable: RESUMABLE_TICKET,
    });
    const missing = await setCover(album.id, team.owner.token, ticket.fileKey);
    expect(missing.statusCode).toBe(409);
    expect(missing.json().code).toBe('upload_missing');
    expect((await putBytes(ctx, ticket, PNG)).status).toBe(200);
    const set = await setCover(album.id, team.owner.token, ticket.fileKey);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      albumId: album.id,
      fileName: 'cover.png',
      contentType: 'image/png',
      size: PNG.length,
    });
    const detail = await getAlbum(team, album.id);
    expect(detail.coverFileId).toBe(set.json().fileId);
    expect(detail.cover).toMatchObject({ fileId: set.json().fileId, url: expect.any(String) });
    const image = await ctx.fetchUrl(detail.cover.url);
    expect(image.status).toBe(200);
    expect(image.body.equals(PNG)).toBe(true);
    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/albums/?teamId=${team.id}`,
      token: team.owner.token,
    });
    expect(list.json().items[0]).toMatchObject({ coverFileId: set.json().fileId });
    expect(list.json().items[0]).not.toHaveProperty('cover');
    // The key was used up.
    expect((await setCover(album.id, team.owner.token, ticket.fileKey)).statusCode).toBe(404);
  });

  it('replaces the previous cover and its bytes; works with a key that has albums:write', async () => {
    const team = await ctx.newTeam();
    const album = await newAlbum(team);
    const key = await ctx.newApiKey(team, ['albums:write']);
    const first = await uploadCover(team, album.id);
    const second = await uploadCover(team, album.id, key, Buffer.concat([PNG, PNG]));
    expect(second.fileId).not.toBe(first.fileId);
    expect(await ctx.listKeys(`teams/${team.id}/`)).toHaveLength(1);
    expect((await ctx.fetchUrl(first.url)).status).toBe(404);
    expect((await getAlbum(team, album.id)).cover.fileId).toBe(second.fileId);
    const actions = await ctx.database.db
      .select({ action: domainEvents.type })
      .from(domainEvents)
      .where(and(eq(domainEvents.teamId, team.id), eq(domainEvents.type, 'album.cover_set')));
    expect(actions).toHaveLength(2);
    await expectNoOrphans(ctx);
  });

  it('needs an image, the upload of this album, and answers 404 without a cover to delete', async () => {
    const team = await ctx.newTeam();
    const album = await newAlbum(team);
    const otherAlbum = await newAlbum(team);
    const pdf = await uploadUrl(album.id, team.owner.token, 'cover.pdf');
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().code).toBe('unsupported_file_type');
    const blank = await uploadUrl(album.id, team.owner.token, ' ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details[0].path).toBe('/body/fileName');
    const ticket = (await uploadUrl(otherAlbum.id, team.owner.token)).json();
    expect((await putBytes(ctx, ticket, PNG)).status).toBe(200);
    expect((await setCover(album.id, team.owner.token, ticket.fileKey)).statusCode).toBe(404);
    expect((await deleteCover(album.id, team.owner.token)).statusCode).toBe(404);
    const stranger = await ctx.newTeam();
    expect((await uploadUrl(album.id, stranger.owner.token)).statusCode).toBe(404);
  });

  it('deletes the cover with its bytes, and with its album', async () => {
    const team = await ctx.newTeam();
    const album = await newAlbum(team);
    await uploadCover(team, album.id);
    const removed = await deleteCover(album.id, team.owner.token);
    expect(removed.statusCode).toBe(204);
    expect((await getAlbum(team, album.id)).cover).toBeNull();
    expect(await ctx.listKeys(`teams/${team.id}/`)).toEqual([]);
    expect((await deleteCover(album.id, team.owner.token)).statusCode).toBe(404);

    await uploadCover(team, album.id);
    // A second cover uploaded but not set yet goes with the album too.
    const pending = (await uploadUrl(album.id, team.owner.token, 'next.png')).json();
    expect((await putBytes(ctx, pending, PNG)).status).toBe(200);
    expect(await ctx.listKeys(`pending/${team.id}/`)).toHaveLength(1);
    const gone = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/albums/${album.id}`,
      token: team.owner.token,
    });
    expect(gone.statusCode).toBe(204);
    expect(await ctx.listKeys(`teams/${team.id}/`)).toEqual([]);
    expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
    const left = await ctx.database.db
      .select()
      .from(pendingUploads)
      .where(eq(pendingUploads.teamId, team.id));
    expect(left).toEqual([]);
    await expectNoOrphans(ctx);
  });
});
