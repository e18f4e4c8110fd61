import { describe, expect, it } from 'vitest';
import type { TestTeam, TestTrack } from '../../../../test/helpers/context.ts';
import { teamEvents } from '../../../../test/helpers/events.ts';
import { describeSecurityMatrix } from '../../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { callWith, newStem, versionsBase } from '../../../../test/helpers/version-uploads.ts';

const ctx = useStorageTestContext('local');
const call = callWith(ctx);

type StemAnswer = {
  id: number;
  restricted: boolean;
  downloadableBy: string[];
  downloadable: boolean;
  file: { fileName: string; facts: unknown; peaks: unknown; url: string | null; downloadUrl: string | null };
};

const stemsOf = (track: TestTrack) => `${versionsBase(track)}/${track.versionId}/stems`;
const rightsOf = (track: TestTrack, stemId: number) => `${stemsOf(track)}/${stemId}/rights`;

async function setUp() {
  const team = await ctx.newTeam();
  const track = await ctx.newTrack(team);
  const stem = await newStem(ctx, team, track);
  return { team, track, stem, stems: stemsOf(track), rights: rightsOf(track, stem.id) };
}

/** Another team (with an owner of its own) the track is shared with, by the owning team's owner. */
async function guestTeamOf(team: TestTeam, track: TestTrack) {
  const guest = await ctx.newTeam();
  await ctx.addMember(guest, 'admin', team.owner);
  await ctx.shareTrack(track.id, guest.id, team.owner.token);
  return guest;
}

async function restrict(
  track: TestTrack,
  stemId: number,
  token: string,
  downloadableBy: string[],
  restricted = true,
) {
  const res = await call('PUT', rightsOf(track, stemId), token, { restricted, downloadableBy });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StemAnswer;
}

/** What `token` is shown of the stem in the list and on its own; both must agree. */
async function seen(track: TestTrack, stemId: number, token: string): Promise<StemAnswer> {
  const list = await call('GET', stemsOf(track), token);
  expect(list.statusCode, list.body).toBe(200);
  const listed = list.json().items.find((s: StemAnswer) => s.id === stemId) as StemAnswer;
  const one = await call('GET', `${stemsOf(track)}/${stemId}`, token);
  expect(one.statusCode, one.body).toBe(200);
  const single = one.json() as StemAnswer;
  expect(listed.downloadable).toBe(single.downloadable);
  for (const answer of [listed, single]) {
    if (answer.downloadable) {
      expect(answer.file.url).toEqual(expect.any(String));
      expect(answer.file.downloadUrl).toEqual(expect.any(String));
    } else {
      // The stem and its audio facts stay visible; only the links are withheld.
      expect(answer.file).toMatchObject({ fileName: 'drums.wav', url: null, downloadUrl: null });
      expect(answer.file.facts).not.toBeNull();
      expect(answer.file.peaks).toEqual(expect.objectContaining({ status: expect.any(String) }));
    }
  }
  return single;
}

describe('download rights of a stem', () => {
  it('sets and clears the rights, answers the stem and records stem.updated with the changes', async () => {
    const { team, track, stem, rights } = await setUp();
    expect(stem).toMatchObject({ restricted: false, downloadableBy: [], downloadable: true });

    const set = await call('PUT', rights, team.owner.token, {
      restricted: true,
      downloadableBy: ['api_key', 'admin'],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      id: stem.id,
      restricted: true,
      downloadableBy: ['admin', 'api_key'],
      downloadable: true,
      file: { url: expect.any(String) },
    });
    // The same rights again change nothing and send nothing.
    expect(
      (
        await call('PUT', rights, team.owner.token, {
          restricted: true,
          downloadableBy: ['admin', 'api_key'],
        })
      ).statusCode,
    ).toBe(200);

    const cleared = await call('PUT', rights, team.owner.token, { restricted: false, downloadableBy: [] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ restricted: false, downloadableBy: [], downloadable: true });

    const updates = (await teamEvents(ctx.database.db, team.id, 'stem')).filter(
      (e) => e.type === 'stem.updated',
    );
    expect(updates.map((e) => e.payload)).toEqual([
      {
        stemId: stem.id,
        versionId: track.versionId,
        trackId: track.id,
        teamId: team.id,
        changes: { restricted: true, downloadableBy: ['admin', 'api_key'] },
      },
      {
        stemId: stem.id,
        versionId: track.versionId,
        trackId: track.id,
        teamId: team.id,
        changes: { restricted: false, downloadableBy: [] },
      },
    ]);
  });

  it('lets admins set rights; plain members, keys, sharing teams and outsiders cannot', async () => {
    const { team, track, stem, rights } = await setUp();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    const body = { restricted: true, downloadableBy: ['member'] };
    expect((await call('PUT', rights, admin.token, body)).statusCode).toBe(200);

    const byMember = await call('PUT', rights, member.token, body);
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().code).toBe('forbidden');

    const key = await ctx.newApiKey(team, ['tracks:write']);
    const byKey = await call('PUT', rights, key, body);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('session_required');

    const guest = await guestTeamOf(team, track);
    const guestAdmin = await ctx.addMember(guest, 'admin');
    expect((await call('PUT', rights, guestAdmin.token, body)).statusCode).toBe(403);
    expect((await call('PUT', rights, guest.owner.token, body)).statusCode).toBe(403);

    const outsider = await ctx.newUser();
    expect((await call('PUT', rights, outsider.token, body)).statusCode).toBe(404);
    expect((await call('PUT', rightsOf(track, 999_999), team.owner.token, body)).statusCode).toBe(404);
    const other = await ctx.newVersion(track);
    const elsewhere = `${versionsBase(track)}/${other.id}/stems/${stem.id}/rights`;
    expect((await call('PUT', elsewhere, team.owner.token, body)).statusCode).toBe(404);
  });

  it('refuses unknown and repeated downloaders and incomplete bodies', async () => {
    const { team, rights } = await setUp();
    const token = team.owner.token;
    const refused = [
      { restricted: true, downloadableBy: ['owner'] },
      { restricted: true, downloadableBy: ['everyone'] },
      { restricted: true, downloadableBy: ['admin', 'admin'] },
      { restricted: true },
      { downloadableBy: [] },
      { restricted: 'yes', downloadableBy: [] },
      { restricted: true, downloadableBy: 'admin' },
      { restricted: true, downloadableBy: [], extra: 1 },
    ];
    for (const body of refused) {
      const res = await call('PUT', rights, token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const unknown = await call('PUT', rights, token, { restricted: true, downloadableBy: ['everyone'] });
    expect(
      unknown
        .json()
        .details.map((d: { path: string }) => d.path)
        .join(),
    ).toContain('/body/downloadableBy');
  });

  it('shows a member role that is not listed the stem without links; a listed admin and the owner get them', async () => {
    const { team, track, stem } = await setUp();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    await restrict(track, stem.id, team.owner.token, ['admin']);

    expect((await seen(track, stem.id, member.token)).downloadable).toBe(false);
    const forAdmin = await seen(track, stem.id, admin.token);
    expect(forAdmin.downloadable).toBe(true);
    expect((await ctx.fetchUrl(forAdmin.file.url!)).status).toBe(200);
    expect((await seen(track, stem.id, team.owner.token)).downloadable).toBe(true);

    // Owners always may, even with nobody listed; admins then may not.
    await restrict(track, stem.id, team.owner.token, []);
    expect((await seen(track, stem.id, team.owner.token)).downloadable).toBe(true);
    expect((await seen(track, stem.id, admin.token)).downloadable).toBe(false);

    await restrict(track, stem.id, team.owner.token, ['member']);
    expect((await seen(track, stem.id, member.token)).downloadable).toBe(true);
    expect((await seen(track, stem.id, admin.token)).downloadable).toBe(false);
  });

  it('ends the URLs handed out before a restriction at once, for those it leaves out only', async () => {
    const { team, track, stem } = await setUp();
    const member = await ctx.addMember(team, 'member');
    const admin = await ctx.addMember(team, 'admin');
    const before = await seen(track, stem.id, member.token);
    const adminBefore = await seen(track, stem.id, admin.token);
    expect((await ctx.fetchUrl(before.file.url!)).status).toBe(200);
    await restrict(track, stem.id, team.owner.token, ['admin']);
    expect((await seen(track, stem.id, member.token)).downloadable).toBe(false);
    for (const url of [before.file.url!, before.file.downloadUrl!]) {
      expect((await ctx.fetchUrl(url)).status).toBe(404);
      expect((await ctx.fetchUrl(url, { method: 'HEAD' })).status).toBe(404);
      expect((await ctx.fetchUrl(url, { headers: { range: 'bytes=10-20' } })).status).toBe(404);
    }
    expect((await ctx.fetchUrl(adminBefore.file.downloadUrl!)).status).toBe(200);
    // Lifting the restriction lets the same URL serve again while it lives.
    await restrict(track, stem.id, team.owner.token, [], false);
    expect((await ctx.fetchUrl(before.file.url!)).status).toBe(200);
  });

  it('gives a key of the owning team the links only with api_key', async () => {
    const { team, track, stem } = await setUp();
    const key = await ctx.newApiKey(team, []);
    await restrict(track, stem.id, team.owner.token, ['admin', 'member', 'shared_team']);
    expect((await seen(track, stem.id, key)).downloadable).toBe(false);
    await restrict(track, stem.id, team.owner.token, ['api_key']);
    expect((await seen(track, stem.id, key)).downloadable).toBe(true);
  });

  it('gives members and keys of a team the track is shared with the links only with shared_team', async () => {
    const { team, track, stem } = await setUp();
    const guest = await guestTeamOf(team, track);
    const guestKey = await ctx.newApiKey(guest, []);
    // The guest team's owner is no owner of the track's team.
    const guests = [guest.owner.token, (await ctx.addMember(guest, 'admin')).token, guestKey];
    await restrict(track, stem.id, team.owner.token, ['admin', 'member', 'api_key']);
    for (const token of guests) expect((await seen(track, stem.id, token)).downloadable).toBe(false);
    await restrict(track, stem.id, team.owner.token, ['shared_team']);
    for (const token of guests) expect((await seen(track, stem.id, token)).downloadable).toBe(true);
  });

  it('answers writes of a plain member on a restricted stem without links', async () => {
    const { team, track, stem, stems } = await setUp();
    const member = await ctx.addMember(team, 'member');
    await restrict(track, stem.id, team.owner.token, ['admin']);
    const renamed = await call('PATCH', `${stems}/${stem.id}`, member.token, { name: 'Kit' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Kit',
      downloadable: false,
      file: { url: null, downloadUrl: null },
    });
  });
});

const cases = [
  {
    method: 'PUT' as const,
    path: '/api/v1/tracks/{id}/versions/{versionId}/stems/{stemId}/rights',
    shareLevel: 'owner' as const,
    build: async (team: TestTeam) => {
      const track = await ctx.newTrack(team);
      const stem = await newStem(ctx, team, track);
      return { url: rightsOf(track, stem.id), payload: { restricted: true, downloadableBy: ['admin'] } };
    },
  },
];

describeSecurityMatrix(ctx, cases);
