import { expect, it } from 'vitest';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { tinyPng } from '../../../test/helpers/track-files.ts';
import { uploadTourCover } from './tours.test-support.ts';

/** Public covers with S3 storage: the service streams the bytes from the bucket itself. */
const ctx = useStorageTestContext('s3');

it('serves a public cover from an S3 bucket to anyone, and stops at once when it is made private', async () => {
  const team = await ctx.newTeam();
  const tour = await ctx.request({
    method: 'POST',
    url: '/api/v1/tours/',
    token: team.owner.token,
    payload: { teamId: team.id, name: 'Bucket tour' },
  });
  const tourId = tour.json().id;
  const cover = await uploadTourCover(ctx, team, tourId, 77);
  const coverUrl = `/api/v1/tours/${tourId}/covers/${cover.id}/public`;
  const made = await ctx.request({
    method: 'PUT',
    url: coverUrl,
    token: team.owner.token,
    payload: { isPublic: true },
  });
  expect(made.statusCode, made.body).toBe(200);
  const { publicUrl } = made.json();

  const fetched = await ctx.fetchUrl(publicUrl);
  expect(fetched.status).toBe(200);
  expect(fetched.body.equals(tinyPng(77))).toBe(true);
  expect(fetched.headers.get('content-type')).toBe('image/png');
  expect(fetched.headers.get('content-length')).toBe(String(tinyPng(77).length));
  expect(fetched.headers.get('etag')).toMatch(/^"/);

  await ctx.request({ method: 'PUT', url: coverUrl, token: team.owner.token, payload: { isPublic: false } });
  expect((await ctx.fetchUrl(publicUrl)).status).toBe(404);
});
