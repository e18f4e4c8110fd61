import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

describe('track collaborators', () => {
  it('adds members and outside people with roles, lists and groups them, removes them', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team);
    const track = await ctx.newTrack(team);
    const url = `/api/v1/tracks/${track.id}/collaborators`;
    const inside = await call('POST', url, team.owner.token, {
      userId: member.id,
      roles: ['Producer', 'vocals'],
    });
    expect(inside.statusCode, inside.body).toBe(201);
    expect(inside.json()).toMatchObject({
      userId: member.id,
      name: member.email,
      roles: ['producer', 'vocals'],
    });
    const outside = await call('POST', url, team.owner.token, {
      name: 'Guest Drummer',
      email: 'drums@example.test',
      roles: ['drums', 'producer'],
    });
    expect(outside.statusCode).toBe(201);
    // A member is a collaborator once, however many requests arrive together.
    const again = await Promise.all(
      [1, 2, 3, 4].map(() => call('POST', url, team.owner.token, { userId: member.id, roles: ['mix'] })),
    );
    expect(again.map((res) => res.statusCode)).toEqual([409, 409, 409, 409]);
    const another = await ctx.addMember(team);
    const together = await Promise.all(
      [1, 2, 3, 4].map(() => call('POST', url, team.owner.token, { userId: another.id, roles: ['mix'] })),
    );
    expect(together.map((res) => res.statusCode).sort()).toEqual([201, 409, 409, 409]);
    await call(
      'DELETE',
      `${url}/${together.find((res) => res.statusCode === 201)!.json().id}`,
      team.owner.token,
    );

    const page = await call('GET', `${url}?limit=1`, team.owner.token);
    expect(page.json().items.map((c: { id: number }) => c.id)).toEqual([inside.json().id]);
    const rest = await call('GET', `${url}?cursor=${page.json().nextCursor}`, team.owner.token);
    expect(rest.json().items.map((c: { id: number }) => c.id)).toEqual([outside.json().id]);

    const groups = await call('GET', `/api/v1/tracks/${track.id}/collaborator-groups`, team.owner.token);
    expect(groups.statusCode).toBe(200);
    expect(
      groups
        .json()
        .items.map((g: { role: string; collaborators: { name: string }[] }) => [
          g.role,
          g.collaborators.map((c) => c.name),
        ]),
    ).toEqual([
      ['drums', ['Guest Drummer']],
      ['producer', [member.email, 'Guest Drummer']],
      ['vocals', [member.email]],
    ]);

    expect((await call('DELETE', `${url}/${outside.json().id}`, team.owner.token)).statusCode).toBe(204);
    expect((await call('DELETE', `${url}/${outside.json().id}`, team.owner.token)).statusCode).toBe(404);
    expect((await call('GET', url, team.owner.token)).json().items).toHaveLength(1);
  });

  it('refuses invalid collaborators (400)', async () => {
    const team = await ctx.newTeam();
    const outsider = await ctx.newUser();
    const track = await ctx.newTrack(team);
    const url = `/api/v1/tracks/${track.id}/collaborators`;
    const bodies: [object, string][] = [
      [{ name: 'x' }, '/body/roles'],
      [{ name: 'x', roles: [] }, '/body/roles'],
      [{ roles: ['producer'] }, '/body/name'],
      [{ name: 'x', roles: ['a', 'a'] }, '/body/roles'],
      [{ userId: outsider.id, roles: ['producer'] }, '/body/userId'],
      [{ name: 'x', roles: ['a'], email: 'not-mail' }, '/body/email'],
    ];
    for (const [body, path] of bodies) {
      const res = await call('POST', url, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        res
          .json()
          .details.map((d: { path: string }) => d.path)
          .join(' '),
      ).toContain(path);
    }
  });
});

const trackUrl = (suffix: string, payload?: object) => async (team: TestTeam) => {
  const track = await ctx.newTrack(team);
  return { url: `/api/v1/tracks/${track.id}${suffix}`, ...(payload ? { payload } : {}) };
};

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/collaborators',
    shareLevel: 'read',
    build: trackUrl('/collaborators'),
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/collaborators',
    shareLevel: 'owner',
    build: trackUrl('/collaborators', { name: 'Matrix', roles: ['producer'] }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/tracks/{id}/collaborators/{collaboratorId}',
    shareLevel: 'owner',
    build: async (team) => {
      const track = await ctx.newTrack(team);
      const url = `/api/v1/tracks/${track.id}/collaborators`;
      const created = await call('POST', url, team.owner.token, { name: 'M', roles: ['mixing'] });
      return { url: `${url}/${created.json().id}` };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/collaborator-groups',
    shareLevel: 'read',
    build: trackUrl('/collaborator-groups'),
  },
];

describeSecurityMatrix(ctx, cases);
