import { describe, expect, it } from 'vitest';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { callWith, newStem, versionsBase } from '../../../../test/helpers/version-uploads.ts';

const ctx = useStorageTestContext('local');
const call = callWith(ctx);

type Asset = { fileId: number; role: string; url: string; downloadUrl: string };

describe('track assets and stem download rights', () => {
  it('leaves out the audio of a restricted stem for callers who may not download it', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const open = await newStem(ctx, team, track, track.versionId, 'Bass');
    const closed = await newStem(ctx, team, track, track.versionId, 'Drums');
    const member = await ctx.addMember(team, 'member');
    const admin = await ctx.addMember(team, 'admin');
    const key = await ctx.newApiKey(team, []);
    const guest = await ctx.newTeam();
    await ctx.addMember(guest, 'admin', team.owner);
    await ctx.shareTrack(track.id, guest.id, team.owner.token);

    const stemFilesFor = async (token: string) => {
      const res = await call('GET', `/api/v1/tracks/${track.id}/assets`, token);
      expect(res.statusCode, res.body).toBe(200);
      const stems = (res.json().items as Asset[]).filter((a) => a.role === 'stem');
      for (const asset of stems) expect(asset.url).toEqual(expect.any(String));
      return stems.map((a) => a.fileId).sort((a, b) => a - b);
    };
    const both = [open.file.fileId, closed.file.fileId].sort((a, b) => a - b);
    expect(await stemFilesFor(member.token)).toEqual(both);

    const rights = `${versionsBase(track)}/${track.versionId}/stems/${closed.id}/rights`;
    const set = await call('PUT', rights, team.owner.token, { restricted: true, downloadableBy: ['admin'] });
    expect(set.statusCode, set.body).toBe(200);

    for (const token of [member.token, key, guest.owner.token])
      expect(await stemFilesFor(token)).toEqual([open.file.fileId]);
    expect(await stemFilesFor(admin.token)).toEqual(both);
    expect(await stemFilesFor(team.owner.token)).toEqual(both);

    const widened = await call('PUT', rights, team.owner.token, {
      restricted: true,
      downloadableBy: ['api_key', 'shared_team'],
    });
    expect(widened.statusCode, widened.body).toBe(200);
    expect(await stemFilesFor(key)).toEqual(both);
    expect(await stemFilesFor(guest.owner.token)).toEqual(both);
    expect(await stemFilesFor(member.token)).toEqual([open.file.fileId]);
  });

  it('ends a stem link from the list once a restriction leaves its caller out', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const stem = await newStem(ctx, team, track);
    const member = await ctx.addMember(team, 'member');
    const listed = await call('GET', `/api/v1/tracks/${track.id}/assets`, member.token);
    const asset = (listed.json().items as Asset[]).find((a) => a.fileId === stem.file.fileId)!;
    expect((await ctx.fetchUrl(asset.downloadUrl)).status).toBe(200);
    const rights = `${versionsBase(track)}/${track.versionId}/stems/${stem.id}/rights`;
    const set = await call('PUT', rights, team.owner.token, { restricted: true, downloadableBy: ['admin'] });
    expect(set.statusCode, set.body).toBe(200);
    expect((await ctx.fetchUrl(asset.downloadUrl)).status).toBe(404);
    expect((await ctx.fetchUrl(asset.url)).status).toBe(404);
  });
});
