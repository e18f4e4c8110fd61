import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes, startMedia, uploadMedia } from '../../../test/helpers/file-flow.ts';
import { type StorageTestContext, useStorageTestContext } from '../../../test/helpers/storage.ts';
import { tinyPng } from '../../../test/helpers/track-files.ts';
import { blobDeletions } from '../../db/schema/index.ts';

const contexts = {
  local: useStorageTestContext('local'),
  s3: useStorageTestContext('s3'),
};

const DAY = 86_400_000;

async function setBanner(ctx: StorageTestContext, team: TestTeam, bytes: Buffer) {
  const ticket = (
    await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/banner/upload-url`,
      token: team.owner.token,
      payload: { fileName: 'banner.png' },
    })
  ).json();
  expect((await putBytes(ctx, ticket, bytes)).status).toBe(200);
  const res = await ctx.request({
    method: 'PUT',
    url: `/api/v1/teams/${team.id}/banner`,
    token: team.owner.token,
    payload: { fileKey: ticket.fileKey },
  });
  expect(res.statusCode, res.body).toBe(200);
}

for (const [driver, ctx] of Object.entries(contexts)) {
  describe(`after a sequence of creates and deletes (${driver} store)`, () => {
    it('leaves no blob without a row and no row without its blob', async () => {
      const team = await ctx.newTeam();
      const doomed = await ctx.newTeam();
      const kept = await uploadMedia(ctx, team, Buffer.from('kept'), 'kept.txt', 'text/plain');
      const deleted = await uploadMedia(ctx, team, Buffer.from('deleted'), 'deleted.txt', 'text/plain');
      await ctx.request({
        method: 'DELETE',
        url: `/api/v1/teams/${team.id}/media/${deleted.id}`,
        token: team.owner.token,
      });

      // Banners replaced twice and then removed.
      await setBanner(ctx, team, tinyPng(1));
      await setBanner(ctx, team, tinyPng(2));
      await setBanner(ctx, doomed, tinyPng(3));

      // Uploaded but never registered, and never uploaded at all: both expire.
      const abandoned = (
        await startMedia(ctx, team, { fileName: 'x.txt', fileSize: 3, mediaType: 'text/plain' })
      ).json();
      expect((await putBytes(ctx, abandoned, Buffer.from('xyz'))).status).toBe(200);
      await startMedia(ctx, team, { fileName: 'y.txt', fileSize: 3, mediaType: 'text/plain' });
      // Uploaded, then discarded.
      const discarded = (
        await startMedia(ctx, team, { fileName: 'z.txt', fileSize: 3, mediaType: 'text/plain' })
      ).json();
      expect((await putBytes(ctx, discarded, Buffer.from('zzz'))).status).toBe(200);
      await ctx.request({
        method: 'DELETE',
        url: `/api/v1/teams/${team.id}/media/${discarded.id}`,
        token: team.owner.token,
      });

      // A whole team deleted with its files: the rows go by cascade, the blobs by the background job.
      await uploadMedia(ctx, doomed, Buffer.from('doomed'), 'doomed.txt', 'text/plain');
      const gone = await ctx.request({
        method: 'DELETE',
        url: `/api/v1/teams/${doomed.id}`,
        token: doomed.owner.token,
      });
      expect(gone.statusCode).toBe(204);

      // The deleted team's blobs are queued in the same transaction that deleted its rows.
      const queued = (
        await ctx.app.deps.database.db.select({ key: blobDeletions.key }).from(blobDeletions)
      ).map((r) => r.key);
      expect(queued.length).toBeGreaterThan(0);
      expect(queued).toEqual(expect.arrayContaining(await ctx.listKeys(`teams/${doomed.id}/`)));

      ctx.clock.advance(DAY + 60_000);
      await ctx.runJobs();

      expect(await ctx.listKeys(`teams/${doomed.id}/`)).toEqual([]);
      expect(await ctx.listKeys('pending/')).toEqual([]);
      const keys = await ctx.listKeys(`teams/${team.id}/`);
      expect(keys).toHaveLength(2); // the kept media and the current banner
      expect(keys).toContain((await ctx.app.services.files.get(team.id, kept.id))?.key);
      await expectNoOrphans(ctx);
    });

    it('removes bytes left under the pending prefix by a replayed upload URL', async () => {
      const team = await ctx.newTeam();
      const stray = `pending/${team.id}/stray-after-registration`;
      await ctx.store.put(stray, Buffer.from('late'), { contentType: 'text/plain' });
      ctx.clock.advance(DAY);
      await ctx.runJobs();
      expect(await ctx.listKeys(stray)).toEqual([]);
    });
  });
}
