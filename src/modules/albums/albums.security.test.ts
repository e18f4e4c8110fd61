import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { putBytes } from '../../../test/helpers/file-flow.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';

// Files on local disk, so the cover routes can be probed with real uploads.
const ctx = useStorageTestContext('local');
const { newAlbum, albumWithTracks } = albumHelpers(ctx);

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]);

const albumUrl =
  (suffix: string, payload?: object) =>
  async (team: TestTeam): Promise<{ url: string; payload?: unknown }> => {
    const album = await newAlbum(team);
    return { url: `/api/v1/albums/${album.id}${suffix}`, ...(payload ? { payload } : {}) };
  };

/** An uploaded (not yet registered) cover image of a new album of the team. */
async function uploadedCover(team: TestTeam) {
  const album = await newAlbum(team);
  const ticket = await ctx.request({
    method: 'POST',
    url: `/api/v1/albums/${album.id}/cover`,
    token: team.owner.token,
    payload: { fileName: 'cover.png' },
  });
  expect((await putBytes(ctx, ticket.json(), PNG)).status).toBe(200);
  return { album, fileKey: ticket.json().fileKey as string };
}

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/albums', build: (team) => ({ url: `/api/v1/albums/?teamId=${team.id}` }) },
  {
    method: 'POST',
    path: '/api/v1/albums',
    build: (team) => ({ url: '/api/v1/albums/', payload: { title: 'Matrix', teamId: team.id } }),
  },
  {
    method: 'GET',
    path: '/api/v1/albums/links',
    build: (team) => ({ url: `/api/v1/albums/links?teamId=${team.id}` }),
  },
  {
    method: 'POST',
    path: '/api/v1/albums/reorder',
    build: async (team) => {
      const album = await newAlbum(team);
      return {
        url: '/api/v1/albums/reorder',
        payload: { status_id: 'idea', album_orders: [{ albumId: album.id, order: 0 }] },
      };
    },
  },
  { method: 'GET', path: '/api/v1/albums/{id}', build: albumUrl('') },
  { method: 'PATCH', path: '/api/v1/albums/{id}', build: albumUrl('', { title: 'Renamed' }) },
  { method: 'DELETE', path: '/api/v1/albums/{id}', build: albumUrl('') },
  { method: 'GET', path: '/api/v1/albums/{id}/collaborators', build: albumUrl('/collaborators') },
  { method: 'PATCH', path: '/api/v1/albums/{id}/status', build: albumUrl('/status', { status: 'ready' }) },
  {
    method: 'POST',
    path: '/api/v1/albums/{id}/tracks',
    build: async (team) => {
      const album = await newAlbum(team);
      const track = await ctx.newTrack(team);
      return { url: `/api/v1/albums/${album.id}/tracks`, payload: { trackIds: [track.id] } };
    },
  },
  {
    method: 'DELETE',
    path: '/api/v1/albums/{id}/tracks/{trackId}',
    build: async (team) => {
      const { album, trackIds } = await albumWithTracks(team, 1);
      return { url: `/api/v1/albums/${album.id}/tracks/${trackIds[0]}` };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/albums/{id}/tracks/reorder',
    build: async (team) => {
      const { album, trackIds } = await albumWithTracks(team, 1);
      return {
        url: `/api/v1/albums/${album.id}/tracks/reorder`,
        payload: { trackOrders: [{ trackId: trackIds[0], order: 0 }] },
      };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/albums/{id}/cover',
    build: albumUrl('/cover', { fileName: 'cover.png' }),
  },
  {
    method: 'PUT',
    path: '/api/v1/albums/{id}/cover',
    build: async (team) => {
      const { album, fileKey } = await uploadedCover(team);
      return { url: `/api/v1/albums/${album.id}/cover`, payload: { fileKey } };
    },
  },
  {
    method: 'DELETE',
    path: '/api/v1/albums/{id}/cover',
    build: async (team) => {
      const { album, fileKey } = await uploadedCover(team);
      const set = await ctx.request({
        method: 'PUT',
        url: `/api/v1/albums/${album.id}/cover`,
        token: team.owner.token,
        payload: { fileKey },
      });
      expect(set.statusCode).toBe(200);
      return { url: `/api/v1/albums/${album.id}/cover` };
    },
  },
];

/** The auth class of every route of the area: as the specification marks it, extensions with the scope. */
const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/albums': { auth: 'keyOrSession', extension: false },
  'GET /api/v1/albums/links': { auth: 'keyOrSession', extension: false },
  'GET /api/v1/albums/{id}': { auth: 'keyOrSession', extension: false },
  'GET /api/v1/albums/{id}/collaborators': { auth: 'keyOrSession', extension: false },
  'DELETE /api/v1/albums/{id}': { auth: 'session', extension: false },
  'PATCH /api/v1/albums/{id}/status': { auth: 'session', extension: false },
  'POST /api/v1/albums/{id}/tracks': { auth: 'session', extension: false },
  'DELETE /api/v1/albums/{id}/tracks/{trackId}': { auth: 'session', extension: false },
  'POST /api/v1/albums/reorder': { auth: 'session', extension: false },
  'POST /api/v1/albums/{id}/tracks/reorder': { auth: 'session', extension: false },
  'POST /api/v1/albums': { auth: 'keyOrSession:albums:write', extension: true },
  'PATCH /api/v1/albums/{id}': { auth: 'keyOrSession:albums:write', extension: true },
  'POST /api/v1/albums/{id}/cover': { auth: 'keyOrSession:albums:write', extension: true },
  'PUT /api/v1/albums/{id}/cover': { auth: 'keyOrSession:albums:write', extension: true },
  'DELETE /api/v1/albums/{id}/cover': { auth: 'keyOrSession:albums:write', extension: true },
};

describe('albums area routes', () => {
  it('declare the auth classes of the specification, and the matrix covers every one of them', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.path.startsWith('/api/v1/albums') && r.operationId.startsWith('albums.'),
      EXPECTED,
      cases,
    );
  });
});

describeSecurityMatrix(ctx, cases);
