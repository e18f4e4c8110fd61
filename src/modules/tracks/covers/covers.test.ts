import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes, RESUMABLE_TICKET } from '../../../../test/helpers/file-flow.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { expectRefusals, type Refusal, tinyPng, uploadCover } from '../../../../test/helpers/track-files.ts';
import { domainEvents } from '../../../db/schema/index.ts';

const ctx = useStorageTestContext('local');

const coversUrl = (trackId: number, suffix = '') => `/api/v1/tracks/${trackId}/covers${suffix}`;

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

async function getTrack(team: TestTeam, trackId: number) {
  const res = await call('GET', `/api/v1/tracks/${trackId}`, team.owner.token);
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('track covers', () => {
  it('uploads a cover in two steps; the first confirmed cover becomes current and the track shows it', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const png = tinyPng(10);
    const started = await call('POST', coversUrl(track.id), team.owner.token, {
      fileName: ' Front.png ',
      fileSize: png.length,
    });
    expect(started.statusCode, started.body).toBe(201);
    const ticket = started.json();
    expect(ticket).toEqual({
      id: expect.any(Number),
      trackId: track.id,
      status: 'pending',
      fileName: 'Front.png',
      fileSize: png.length,
      mediaType: 'image/png',
      isCurrent: false,
      createdAt: expect.any(String),
      uploadUrl: expect.any(String),
      method: 'PUT',
      headers: expect.objectContaining({ 'content-type': 'image/png' }),
      fileKey: expect.stringMatching(new RegExp(`^pending/${team.id}/`)),
      expiresAt: expect.any(String),
      resumable: RESUMABLE_TICKET,
    });
    // Not confirmable before the bytes are there; not listed while pending.
    const early = await call('POST', coversUrl(track.id, `/${ticket.id}/added`), team.owner.token);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('upload_missing');
    expect((await call('GET', coversUrl(track.id), team.owner.token)).json().items).toEqual([]);
    expect((await getTrack(team, track.id)).cover).toBeNull();

    expect((await putBytes(ctx, ticket, png)).status).toBe(200);
    const added = await call('POST', coversUrl(track.id, `/${ticket.id}/added`), team.owner.token);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toEqual({
      id: ticket.id,
      trackId: track.id,
      status: 'ready',
      fileName: 'Front.png',
      fileSize: png.length,
      mediaType: 'image/png',
      isCurrent: true,
      createdAt: expect.any(String),
      url: expect.any(String),
      downloadUrl: expect.any(String),
      urlExpiresAt: expect.any(String),
    });
    // Confirming again answers the same cover.
    const again = await call('POST', coversUrl(track.id, `/${ticket.id}/added`), team.owner.token);
    expect(again.json()).toMatchObject({ id: ticket.id, isCurrent: true });

    const shown = await getTrack(team, track.id);
    expect(shown).toMatchObject({
      coverFileId: ticket.id,
      cover: { id: ticket.id, fileName: 'Front.png', mediaType: 'image/png', url: expect.any(String) },
    });
    const image = await ctx.fetchUrl(shown.cover.url);
    expect(image.status).toBe(200);
    expect(image.body.equals(png)).toBe(true);
    expect(image.headers.get('content-type')).toMatch(/^image\/png/);
    // Lists carry the id only.
    const list = await call('GET', `/api/v1/tracks/?teamId=${team.id}`, team.owner.token);
    const listed = list.json().items.find((t: { id: number }) => t.id === track.id);
    expect(listed.coverFileId).toBe(ticket.id);
    expect(listed.cover).toBeUndefined();

    // A second cover does not take over.
    const second = await uploadCover(ctx, team, track.id, 20);
    expect(second.isCurrent).toBe(false);
    const covers = await call('GET', coversUrl(track.id), team.owner.token);
    expect(covers.json().items.map((c: { id: number; isCurrent: boolean }) => [c.id, c.isCurrent])).toEqual([
      [second.id, false],
      [ticket.id, true],
    ]);
    const actions = await ctx.database.db
      .select({ action: domainEvents.type })
      .from(domainEvents)
      .where(eq(domainEvents.teamId, team.id));
    expect(actions.filter((a) => a.action === 'track.cover_added')).toHaveLength(2);
  });

  it('lists covers page by page, newest first', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const ids: number[] = [];
    for (const grey of [1, 2, 3]) ids.push((await uploadCover(ctx, team, track.id, grey)).id);
    const first = await call('GET', coversUrl(track.id, '?limit=2'), team.owner.token);
    expect(first.json().items.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[1]]);
    const next = await call(
      'GET',
      coversUrl(track.id, `?limit=2&cursor=${first.json().nextCursor}`),
      team.owner.token,
    );
    expect(next.json()).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
  });

  it('switches the current cover; a pending cover is 409, a missing one 404', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const first = await uploadCover(ctx, team, track.id, 1);
    const second = await uploadCover(ctx, team, track.id, 2);
    const before = (await getTrack(team, track.id)).updatedAt;
    const set = await call('PATCH', coversUrl(track.id, `/${second.id}/current`), team.owner.token);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ id: second.id, isCurrent: true, status: 'ready' });
    const track2 = await getTrack(team, track.id);
    expect(track2).toMatchObject({ coverFileId: second.id, cover: { id: second.id } });
    expect(track2.updatedAt >= before).toBe(true);
    const listed = (await call('GET', coversUrl(track.id), team.owner.token)).json().items;
    expect(listed.map((c: { id: number; isCurrent: boolean }) => [c.id, c.isCurrent])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    // An empty JSON body is the same as none; fields are not.
    const withBody = await ctx.request({
      method: 'PATCH',
      url: coversUrl(track.id, `/${first.id}/current`),
      token: team.owner.token,
      payload: {},
    });
    expect(withBody.statusCode).toBe(200);
    const extra = await call('PATCH', coversUrl(track.id, `/${first.id}/current`), team.owner.token, {
      x: 1,
    });
    expect(extra.statusCode).toBe(400);

    const pending = await call('POST', coversUrl(track.id), team.owner.token, { fileName: 'later.png' });
    const refused = await call(
      'PATCH',
      coversUrl(track.id, `/${pending.json().id}/current`),
      team.owner.token,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('conflict');
    expect((await call('PATCH', coversUrl(track.id, '/999999/current'), team.owner.token)).statusCode).toBe(
      404,
    );
    // A cover of another track of the same team is not this track's cover.
    const other = await ctx.newTrack(team);
    expect(
      (await call('PATCH', coversUrl(other.id, `/${first.id}/current`), team.owner.token)).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', coversUrl(other.id, `/${pending.json().id}/added`), team.owner.token)).statusCode,
    ).toBe(404);
  });

  it('deletes covers with their bytes; deleting the current one clears it and the next cover takes over', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const first = await uploadCover(ctx, team, track.id, 1);
    const second = await uploadCover(ctx, team, track.id, 2);
    const removed = await call('DELETE', coversUrl(track.id, `/${first.id}`), team.owner.token);
    expect(removed.statusCode).toBe(204);
    expect((await ctx.fetchUrl(first.url)).status).toBe(404);
    const cleared = await getTrack(team, track.id);
    expect(cleared).toMatchObject({ coverFileId: null, cover: null });
    // The remaining cover is not made current behind the client's back...
    expect((await call('GET', coversUrl(track.id), team.owner.token)).json().items).toEqual([
      expect.objectContaining({ id: second.id, isCurrent: false }),
    ]);
    // ...but the next one confirmed is, since the track has none.
    const third = await uploadCover(ctx, team, track.id, 3);
    expect(third.isCurrent).toBe(true);
    // Deleting a cover that is not current leaves the current one.
    expect((await call('DELETE', coversUrl(track.id, `/${second.id}`), team.owner.token)).statusCode).toBe(
      204,
    );
    expect((await getTrack(team, track.id)).coverFileId).toBe(third.id);
    expect((await call('DELETE', coversUrl(track.id, `/${second.id}`), team.owner.token)).statusCode).toBe(
      404,
    );

    // A pending cover and its bytes go too.
    const png = tinyPng(4);
    const pending = (await call('POST', coversUrl(track.id), team.owner.token, { fileName: 'p.png' })).json();
    expect((await putBytes(ctx, pending, png)).status).toBe(200);
    expect((await call('DELETE', coversUrl(track.id, `/${pending.id}`), team.owner.token)).statusCode).toBe(
      204,
    );
    expect(await ctx.listKeys(pending.fileKey)).toEqual([]);
    expect(
      (await call('POST', coversUrl(track.id, `/${pending.id}/added`), team.owner.token)).statusCode,
    ).toBe(404);
    await expectNoOrphans(ctx);
  });

  it('refuses what is not an image and malformed bodies with clear codes and paths', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const cases: Refusal[] = [
      [{ fileName: 'cover.pdf' }, 400, 'unsupported_file_type'],
      [{ fileName: 'cover', mediaType: 'application/pdf' }, 400, 'unsupported_file_type'],
      [{ fileName: 'cover.png', mediaType: 'audio' }, 400, 'unsupported_file_type'],
      [{ fileName: 'cover' }, 400, 'unsupported_file_type'],
      [{ fileName: 'cover.png', mediaType: 'not a type' }, 400, 'validation_failed', '/body/mediaType'],
      [{}, 400, 'validation_failed', '/body/fileName'],
      [{ fileName: '' }, 400, 'validation_failed', '/body/fileName'],
      [{ fileName: '   ' }, 400, 'validation_failed', '/body/fileName'],
      [{ fileName: 'c.png', fileSize: -1 }, 400, 'validation_failed', '/body/fileSize'],
      [{ fileName: 'c.png', fileSize: '10' }, 400, 'validation_failed', '/body/fileSize'],
      [{ fileName: 'c.png', isCurrent: true }, 400, 'validation_failed', '/body'],
      [{ fileName: 'c.png', fileSize: 21 * 1024 * 1024 }, 413, 'payload_too_large'],
    ];
    await expectRefusals(ctx, team.owner.token, coversUrl(track.id), cases);
    // Accepted spellings: a kind or an image type, the name's extension then optional.
    for (const payload of [
      { fileName: 'art.webp', mediaType: 'image' },
      { fileName: 'art', mediaType: 'image/jpeg' },
    ]) {
      const res = await call('POST', coversUrl(track.id), team.owner.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(201);
    }
    expect((await call('GET', coversUrl(track.id, '?limit=0'), team.owner.token)).statusCode).toBe(400);
    expect((await call('DELETE', coversUrl(track.id, '/abc'), team.owner.token)).statusCode).toBe(400);
  });

  it("never shows or changes another team's covers (404)", async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const cover = await uploadCover(ctx, team, track.id);
    const pending = (await call('POST', coversUrl(track.id), team.owner.token, { fileName: 'p.png' })).json();
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['POST', '', { fileName: 'x.png' }],
      ['POST', `/${pending.id}/added`, undefined],
      ['PATCH', `/${cover.id}/current`, undefined],
      ['DELETE', `/${cover.id}`, undefined],
    ] as const) {
      const res = await call(method, coversUrl(track.id, suffix), other.owner.token, payload);
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
    expect((await getTrack(team, track.id)).coverFileId).toBe(cover.id);
  });

  it('lets a team API key with tracks:write manage covers (B); a member of a sharing team only sees them', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const key = await ctx.newApiKey(team, ['tracks:write']);
    const png = tinyPng(7);
    const started = await call('POST', coversUrl(track.id), key, { fileName: 'k.png', fileSize: png.length });
    expect(started.statusCode).toBe(201);
    expect((await putBytes(ctx, started.json(), png)).status).toBe(200);
    const added = await call('POST', coversUrl(track.id, `/${started.json().id}/added`), key);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().isCurrent).toBe(true);

    const guest = await ctx.newTeam(team.owner);
    const shared = await call('POST', `/api/v1/tracks/${track.id}/teams`, team.owner.token, {
      teamId: guest.id,
    });
    expect(shared.statusCode, shared.body).toBeLessThan(300);
    const member = await ctx.addMember(guest);
    const listed = await call('GET', coversUrl(track.id), member.token);
    expect(listed.json().items).toEqual([expect.objectContaining({ id: added.json().id, isCurrent: true })]);
    const other = await uploadCover(ctx, team, track.id, 9);
    for (const [method, suffix, payload] of [
      ['POST', '', { fileName: 'g.png' }],
      ['PATCH', `/${other.id}/current`, undefined],
      ['DELETE', `/${added.json().id}`, undefined],
    ] as const) {
      const res = await call(method, coversUrl(track.id, suffix), member.token, payload);
      expect(res.statusCode, `${method} ${suffix}`).toBe(403);
    }
    expect((await getTrack(team, track.id)).coverFileId).toBe(added.json().id);
  });
});

const P = '/api/v1/tracks/{id}/covers';
const withCover = (suffix: string) => async (team: TestTeam) => {
  const track = await ctx.newTrack(team);
  const cover = await uploadCover(ctx, team, track.id);
  return { url: coversUrl(track.id, `/${cover.id}${suffix}`) };
};
const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: P,
    shareLevel: 'read',
    build: async (team) => ({ url: coversUrl((await ctx.newTrack(team)).id) }),
  },
  {
    method: 'POST',
    path: P,
    shareLevel: 'owner',
    build: async (team) => ({
      url: coversUrl((await ctx.newTrack(team)).id),
      payload: { fileName: 'c.png' },
    }),
  },
  {
    method: 'POST',
    path: `${P}/{coverId}/added`,
    shareLevel: 'owner',
    build: async (team) => {
      const track = await ctx.newTrack(team);
      const png = tinyPng();
      const ticket = (
        await call('POST', coversUrl(track.id), team.owner.token, { fileName: 'c.png', fileSize: png.length })
      ).json();
      await putBytes(ctx, ticket, png);
      return { url: coversUrl(track.id, `/${ticket.id}/added`) };
    },
  },
  { method: 'PATCH', path: `${P}/{coverId}/current`, shareLevel: 'owner', build: withCover('/current') },
  { method: 'DELETE', path: `${P}/{coverId}`, shareLevel: 'owner', build: withCover('') },
];

describeSecurityMatrix(ctx, cases);
