import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { expectNoOrphans } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';

/** The service API other areas build on (tracks, stems, covers, voice messages), used as they would. */
const ctx = useStorageTestContext('local');

const files = () => ctx.app.services.files;
const owner = { type: 'test_owner', id: 7 };

async function uploadFor(
  team: TestTeam,
  body: Buffer,
  fileName = 'stem.txt',
  kind: 'document' | 'audio' = 'document',
) {
  const ticket = await files().createUploadUrl({ teamId: team.id, kind, fileName, size: body.length, owner });
  const put = await ctx.fetchUrl(ticket.uploadUrl, { method: 'PUT', headers: ticket.headers, body });
  expect(put.status).toBe(200);
  return ticket;
}

describe('the files service', () => {
  it('registers only for the owner and kind the URL was issued for', async () => {
    const team = await ctx.newTeam();
    const ticket = await uploadFor(team, Buffer.from('abc'));
    await expect(
      files().register({ teamId: team.id, key: ticket.key, owner: { type: 'test_owner', id: 8 } }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      files().register({ teamId: team.id, key: ticket.key, owner, kind: 'audio' }),
    ).rejects.toMatchObject({ code: 'unsupported_file_type' });
    const other = await ctx.newTeam();
    await expect(files().register({ teamId: other.id, key: ticket.key, owner })).rejects.toMatchObject({
      code: 'not_found',
    });
    const file = await files().register({ teamId: team.id, key: ticket.key, owner });
    expect(file).toMatchObject({
      id: ticket.fileId,
      kind: 'document',
      size: 3,
      ownerType: 'test_owner',
      ownerId: '7',
    });
  });

  it("leaves nothing recorded when the caller's own writes fail in the same transaction", async () => {
    const team = await ctx.newTeam();
    const ticket = await uploadFor(team, Buffer.from('rolled back'));
    const prepared = await files().prepareRegistration({ teamId: team.id, key: ticket.key, owner });
    await expect(
      files().commitRegistration(prepared, async (tx) => {
        await files().completeRegistration(tx, prepared);
        throw new Error('the owning resource could not be written');
      }),
    ).rejects.toThrow('the owning resource');
    expect(await files().get(team.id, ticket.fileId)).toBeUndefined();
    // The upload is still open: registering again succeeds.
    const again = await files().prepareRegistration({ teamId: team.id, key: ticket.key, owner });
    const file = await files().commitRegistration(again, (tx) => files().completeRegistration(tx, again));
    expect(file.id).toBe(ticket.fileId);
    await expectNoOrphans(ctx);
  });

  it("deletes in the caller's transaction, the blob following the commit", async () => {
    const team = await ctx.newTeam();
    const ticket = await uploadFor(team, Buffer.from('bye'));
    const file = await files().register({ teamId: team.id, key: ticket.key, owner });
    await ctx.app.deps.database.db.transaction(async (tx) => {
      expect(await files().delete(team.id, [file.id], { tx })).toEqual([file.id]);
    });
    // A plain transaction leaves the blob to the job (or an explicit drain) ...
    expect(await ctx.listKeys(file.key)).toEqual([file.key]);
    await files().drainDeletions();
    expect(await ctx.listKeys(file.key)).toEqual([]);
    // ... one of the service's removes it as soon as it commits.
    const other = await files().register({
      teamId: team.id,
      key: (await uploadFor(team, Buffer.from('x'))).key,
      owner,
    });
    await files().transaction((tx) => files().delete(team.id, [other.id], { tx }));
    expect(await ctx.listKeys(other.key)).toEqual([]);
  });

  it('soft-deletes: keeps the file until its purge time, unless restored', async () => {
    const team = await ctx.newTeam();
    const kept = await files().register({
      teamId: team.id,
      key: (await uploadFor(team, Buffer.from('1'))).key,
      owner,
    });
    const purged = await files().register({
      teamId: team.id,
      key: (await uploadFor(team, Buffer.from('2'))).key,
      owner,
    });
    const at = new Date(ctx.clock.now().getTime() + 3_600_000);
    await files().scheduleDelete(team.id, [kept.id, purged.id], at);
    await files().cancelScheduledDelete(team.id, [kept.id]);
    await ctx.runJobs();
    expect(await files().get(team.id, purged.id)).toBeDefined();
    ctx.clock.advance(3_600_000 + 600_001);
    await ctx.runJobs();
    expect(await files().get(team.id, purged.id)).toBeUndefined();
    expect(await files().get(team.id, kept.id)).toBeDefined();
    expect(await ctx.listKeys(purged.key)).toEqual([]);
    await expectNoOrphans(ctx);
  });

  it('discards a pending upload with its bytes', async () => {
    const team = await ctx.newTeam();
    const ticket = await uploadFor(team, Buffer.from('never mind'));
    expect(await files().discardPending(team.id, ticket.key, { type: 'someone_else', id: 1 })).toBe(false);
    expect(await files().discardPending(team.id, ticket.key, owner)).toBe(true);
    expect(await ctx.listKeys(ticket.key)).toEqual([]);
    await expect(files().register({ teamId: team.id, key: ticket.key, owner })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
