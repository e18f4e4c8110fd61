import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { DEFAULT_STATUS_CONFIG } from './default-status-config.ts';

const ctx = useTestContext();

const withRequires = (list: typeof DEFAULT_STATUS_CONFIG.tracks, at: number, requires: unknown) =>
  list.map((s, i) => (i === at ? { ...s, requires } : s));

describe('approval requirements of statuses', () => {
  it('keeps a requirement and shows it to every member', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team);
    const requires = { approvals: 2, roles: ['owner', 'admin'], autoAdvance: true };
    const tracks = withRequires(DEFAULT_STATUS_CONFIG.tracks, 5, requires);
    const res = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
      payload: { patch: { tracks } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const shown = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: member.token,
    });
    expect(shown.json().tracks[5]).toEqual({ id: 'ready', name: 'Ready', requires });
  });

  it('refuses a bad requirement (400 at its path) and changes nothing', async () => {
    const team = await ctx.newTeam();
    const { tracks, albums } = DEFAULT_STATUS_CONFIG;
    const cases: [unknown, string][] = [
      [{ tracks: withRequires(tracks, 3, { approvals: 0 }) }, '/body/patch/tracks/3/requires/approvals'],
      [{ tracks: withRequires(tracks, 3, { approvals: 21 }) }, '/body/patch/tracks/3/requires/approvals'],
      [{ tracks: withRequires(tracks, 3, { approvals: 1.5 }) }, '/body/patch/tracks/3/requires/approvals'],
      [{ tracks: withRequires(tracks, 3, {}) }, '/body/patch/tracks/3/requires/approvals'],
      [
        { tracks: withRequires(tracks, 3, { approvals: 1, roles: ['guest'] }) },
        '/body/patch/tracks/3/requires/roles/0',
      ],
      [
        { tracks: withRequires(tracks, 3, { approvals: 1, roles: [] }) },
        '/body/patch/tracks/3/requires/roles',
      ],
      [
        { tracks: withRequires(tracks, 3, { approvals: 1, roles: ['admin', 'admin'] }) },
        '/body/patch/tracks/3/requires/roles',
      ],
      [
        { tracks: withRequires(tracks, 3, { approvals: 1, quorum: true }) },
        '/body/patch/tracks/3/requires/quorum',
      ],
      [{ tracks: withRequires(tracks, 0, { approvals: 1 }) }, '/body/patch/tracks/0/requires'],
      [
        { albums: withRequires(albums, 3, { approvals: 1, autoAdvance: true }) },
        '/body/patch/albums/3/requires/autoAdvance',
      ],
    ];
    for (const [patch, path] of cases) {
      const res = await ctx.request({
        method: 'PATCH',
        url: `/api/v1/teams/${team.id}/status-config`,
        token: team.owner.token,
        payload: { patch: patch as object },
      });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(
        res.json().details.map((d: { path: string }) => d.path),
        JSON.stringify(patch),
      ).toContain(path);
    }
    const after = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
    });
    expect(after.json()).toEqual(DEFAULT_STATUS_CONFIG);
  });

  it('documents requirements and the 409 approval_required of moves in OpenAPI', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.components.schemas.TeamStatusRequirement.properties.approvals).toMatchObject({
      minimum: 1,
      maximum: 20,
    });
    for (const [path, method] of [
      ['/api/v1/tracks/{id}/status', 'patch'],
      ['/api/v1/albums/{id}/status', 'patch'],
      ['/api/v1/teams/{id}/status-config', 'patch'],
    ] as const) {
      const conflict = doc.paths[path][method].responses['409'];
      expect(conflict.description, path).toContain('approval_required');
      expect(JSON.stringify(conflict.content), path).toContain('ApprovalRequiredError');
    }
    expect(doc.components.schemas.TrackSummary.properties).toHaveProperty('blockedBy');
    expect(doc.components.schemas.Album.properties).toHaveProperty('blockedBy');
  });
});
