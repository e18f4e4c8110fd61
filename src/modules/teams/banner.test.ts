import { describe, expect, it } from 'vitest';
import type { TestTeam, TestUser } from '../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes, RESUMABLE_TICKET } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';

const ctx = useStorageTestContext('local');

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]);

async function uploadUrl(team: TestTeam, fileName = 'banner.png', user: TestUser = team.owner) {
  return ctx.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/banner/upload-url`,
    token: user.token,
    payload: { fileName },
  });
}

function setBanner(team: TestTeam, fileKey: string, user: TestUser = team.owner) {
  return ctx.request({
    method: 'PUT',
    url: `/api/v1/teams/${team.id}/banner`,
    token: user.token,
    payload: { fileKey },
  });
}

async function uploadBanner(team: TestTeam, bytes = PNG, fileName = 'banner.png') {
  const ticket = (await uploadUrl(team, fileName)).json();
  expect((await putBytes(ctx, ticket, bytes)).status).toBe(200);
  const res = await setBanner(team, ticket.fileKey);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('the team banner', () => {
  it('answers an upload URL with the spec fields, then sets the banner from its fileKey', async () => {
    const team = await ctx.newTeam();
    const res = await uploadUrl(team);
    expect(res.statusCode).toBe(200);
    const ticket = res.json();
    expect(ticket).toEqual({
      uploadUrl: expect.stringContaining('/api/v1/files/upload?token='),
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      fileKey: expect.stringMatching(/^pending\//),
      expiresAt: expect.any(String),
      resumable: RESUMABLE_TICKET,
    });
    expect((await putBytes(ctx, ticket, PNG)).status).toBe(200);
    const set = await setBanner(team, ticket.fileKey);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      teamId: team.id,
      fileName: 'banner.png',
      contentType: 'image/png',
      size: PNG.length,
    });
    const got = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/banner`,
      token: team.owner.token,
    });
    expect(got.json().fileId).toBe(set.json().fileId);
    const image = await ctx.fetchUrl(got.json().url);
    expect(image.body.equals(PNG)).toBe(true);
    // The key was used: it cannot set the banner twice.
    expect((await setBanner(team, ticket.fileKey)).statusCode).toBe(404);
  });

  it('replaces the previous banner and deletes its bytes', async () => {
    const team = await ctx.newTeam();
    const first = await uploadBanner(team);
    const second = await uploadBanner(team, Buffer.concat([PNG, PNG]), 'wide.png');
    expect(second.fileId).not.toBe(first.fileId);
    expect(await ctx.listKeys(`teams/${team.id}/`)).toHaveLength(1);
    expect((await ctx.fetchUrl(first.url)).status).toBe(404);
    const stats = await ctx.request({
      method: 'GET',
      url: `/api/v1/stats/storage?teamId=${team.id}`,
      token: team.owner.token,
    });
    expect(stats.json()).toMatchObject({ usedBytes: PNG.length * 2, fileCount: 1 });
    await expectNoOrphans(ctx);
  });

  it('needs an image, an uploaded one, and an owner or admin', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const admin = await ctx.addMember(team, 'admin');
    const notImage = await uploadUrl(team, 'banner.pdf');
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().code).toBe('unsupported_file_type');
    const forMember = await uploadUrl(team, 'banner.png', member);
    expect(forMember.statusCode).toBe(403);
    expect(forMember.json().code).toBe('forbidden');

    const ticket = (await uploadUrl(team, 'banner.webp', admin)).json();
    const missing = await setBanner(team, ticket.fileKey, admin);
    expect(missing.statusCode).toBe(409);
    expect(missing.json().code).toBe('upload_missing');
    expect((await putBytes(ctx, ticket, PNG)).status).toBe(200);
    expect((await setBanner(team, ticket.fileKey, member)).statusCode).toBe(403);
    expect((await setBanner(team, 'pending/1/not-a-key', admin)).statusCode).toBe(404);
    // PNG bytes under a WebP upload: the bytes are checked, not only the name.
    const mislabelled = await setBanner(team, ticket.fileKey, admin);
    expect(mislabelled.statusCode).toBe(400);
    expect(mislabelled.json()).toMatchObject({
      code: 'unsupported_file_type',
      error: 'The uploaded bytes are not a image/webp image',
    });
    const png = (await uploadUrl(team, 'banner.png', admin)).json();
    expect((await putBytes(ctx, png, PNG)).status).toBe(200);
    expect((await setBanner(team, png.fileKey, admin)).statusCode).toBe(200);
  });

  it('refuses a media upload key as a banner, and a banner key of another team', async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam();
    const media = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/media`,
      token: team.owner.token,
      payload: { fileName: 'x.png', fileSize: PNG.length, mediaType: 'image/png' },
    });
    expect((await setBanner(team, media.json().fileKey)).statusCode).toBe(404);
    const ticket = (await uploadUrl(other)).json();
    expect((await putBytes(ctx, ticket, PNG)).status).toBe(200);
    expect((await setBanner(team, ticket.fileKey)).statusCode).toBe(404);
  });

  it('removes the banner and its bytes; without one, GET and DELETE answer 404', async () => {
    const team = await ctx.newTeam();
    const none = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/banner`,
      token: team.owner.token,
    });
    expect(none.statusCode).toBe(404);
    await uploadBanner(team);
    const removed = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/banner`,
      token: team.owner.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(await ctx.listKeys(`teams/${team.id}/`)).toEqual([]);
    const again = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/banner`,
      token: team.owner.token,
    });
    expect(again.statusCode).toBe(404);
  });
});
