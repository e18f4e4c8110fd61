import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';

const ctx = useStorageTestContext('local');

async function newMedia(team: TestTeam) {
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/media`,
    token: team.owner.token,
    payload: { fileName: 'a.txt', fileSize: 2, mediaType: 'text/plain' },
  });
  if (res.statusCode !== 201) throw new Error(`media failed: ${res.statusCode} ${res.body}`);
  const media = res.json();
  await ctx.fetchUrl(media.uploadUrl, { method: 'PUT', headers: media.headers, body: Buffer.from('hi') });
  return media as { id: number; fileKey: string };
}

async function newBanner(team: TestTeam) {
  const ticket = (
    await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/banner/upload-url`,
      token: team.owner.token,
      payload: { fileName: 'b.png' },
    })
  ).json();
  await ctx.fetchUrl(ticket.uploadUrl, { method: 'PUT', headers: ticket.headers, body: Buffer.from('png') });
  return ticket as { fileKey: string };
}

const teamUrl = (suffix: string) => (team: TestTeam) => ({ url: `/api/v1/teams/${team.id}${suffix}` });

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/teams/{id}/media', build: teamUrl('/media') },
  {
    method: 'POST',
    path: '/api/v1/teams/{id}/media',
    build: (team) => ({
      url: `/api/v1/teams/${team.id}/media`,
      payload: { fileName: 'a.txt', fileSize: 2, mediaType: 'text/plain' },
    }),
  },
  {
    method: 'POST',
    path: '/api/v1/teams/{id}/media/{mediaId}/added',
    build: async (team) => ({ url: `/api/v1/teams/${team.id}/media/${(await newMedia(team)).id}/added` }),
  },
  {
    method: 'GET',
    path: '/api/v1/teams/{id}/media/{mediaId}',
    build: async (team) => ({ url: `/api/v1/teams/${team.id}/media/${(await newMedia(team)).id}` }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/teams/{id}/media/{mediaId}',
    build: async (team) => ({ url: `/api/v1/teams/${team.id}/media/${(await newMedia(team)).id}` }),
  },
  {
    method: 'POST',
    path: '/api/v1/teams/{id}/banner/upload-url',
    build: (team) => ({ url: `/api/v1/teams/${team.id}/banner/upload-url`, payload: { fileName: 'b.png' } }),
  },
  {
    method: 'PUT',
    path: '/api/v1/teams/{id}/banner',
    build: async (team) => ({
      url: `/api/v1/teams/${team.id}/banner`,
      payload: { fileKey: (await newBanner(team)).fileKey },
    }),
  },
  {
    method: 'GET',
    path: '/api/v1/teams/{id}/banner',
    build: async (team) => {
      const { fileKey } = await newBanner(team);
      await ctx.request({
        method: 'PUT',
        url: `/api/v1/teams/${team.id}/banner`,
        token: team.owner.token,
        payload: { fileKey },
      });
      return { url: `/api/v1/teams/${team.id}/banner` };
    },
  },
  {
    method: 'DELETE',
    path: '/api/v1/teams/{id}/banner',
    build: async (team) => {
      const { fileKey } = await newBanner(team);
      await ctx.request({
        method: 'PUT',
        url: `/api/v1/teams/${team.id}/banner`,
        token: team.owner.token,
        payload: { fileKey },
      });
      return { url: `/api/v1/teams/${team.id}/banner` };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/stats/storage',
    build: (team) => ({ url: `/api/v1/stats/storage?teamId=${team.id}` }),
  },
];

describe('file storage routes', () => {
  it('are session-only (teams and stats are S in the specification) and all in the matrix', () => {
    const routes = ctx.app.routeTable.filter(
      (r) =>
        r.operationId.startsWith('teams.media') ||
        r.operationId.startsWith('teams.banner') ||
        r.operationId === 'stats.storage',
    );
    expect(routes).toHaveLength(cases.length);
    const covered = new Set(cases.map((c) => `${c.method} ${c.path}`));
    for (const route of routes) {
      expect(route.auth.kind, route.operationId).toBe('session');
      expect(covered, route.operationId).toContain(`${route.method} ${route.path}`);
    }
  });

  it('the signed-URL routes are anonymous: the signature is the authority', () => {
    for (const operationId of ['files.upload', 'files.download']) {
      expect(ctx.app.routeTable.find((r) => r.operationId === operationId)?.auth.kind).toBe('anonymous');
    }
  });
});

describeSecurityMatrix(ctx, cases);
