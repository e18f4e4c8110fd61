import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

async function todosUrl(team: TestTeam) {
  const track = await ctx.newTrack(team);
  return `/api/v1/tracks/${track.id}/versions/${track.versionId}/todos`;
}

describe('version to-dos', () => {
  it('creates, lists, changes and deletes to-dos', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team);
    const url = await todosUrl(team);
    const created = await call('POST', url, team.owner.token, {
      todo: ' Fix the intro ',
      assigneeId: member.id,
      dueDate: '2027-02-01',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      todo: 'Fix the intro',
      done: false,
      assigneeId: member.id,
      dueDate: '2027-02-01',
      createdBy: team.owner.id,
    });
    const second = await call('POST', url, member.token, { todo: 'Second' });
    const id = created.json().id;
    const patched = await call('PATCH', `${url}/${id}`, member.token, {
      done: true,
      assigneeId: null,
      dueDate: null,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      done: true,
      assigneeId: null,
      dueDate: null,
      todo: 'Fix the intro',
    });

    const page = await call('GET', `${url}?limit=1`, team.owner.token);
    expect(page.json().items.map((t: { id: number }) => t.id)).toEqual([id]);
    const next = await call('GET', `${url}?limit=1&cursor=${page.json().nextCursor}`, team.owner.token);
    expect(next.json().items.map((t: { id: number }) => t.id)).toEqual([second.json().id]);

    expect((await call('DELETE', `${url}/${id}`, team.owner.token)).statusCode).toBe(204);
    expect((await call('DELETE', `${url}/${id}`, team.owner.token)).statusCode).toBe(404);
    expect((await call('PATCH', `${url}/${id}`, team.owner.token, { done: true })).statusCode).toBe(404);
  });

  it('refuses invalid to-dos (400), including an assignee outside the team', async () => {
    const team = await ctx.newTeam();
    const outsider = await ctx.newUser();
    const url = await todosUrl(team);
    const bodies: [object, string][] = [
      [{}, '/body/todo'],
      [{ todo: '' }, '/body/todo'],
      [{ todo: 'x', dueDate: 'tomorrow' }, '/body/dueDate'],
      [{ todo: 'x', assigneeId: 'not-a-uuid' }, '/body/assigneeId'],
      [{ todo: 'x', assigneeId: outsider.id }, '/body/assigneeId'],
      [{ todo: 'x', extra: 1 }, '/body'],
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
    const created = await call('POST', url, team.owner.token, { todo: 'ok' });
    for (const body of [{}, { done: 'yes' }, { assigneeId: outsider.id }]) {
      const res = await call('PATCH', `${url}/${created.json().id}`, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('does not reach a to-do through another version', async () => {
    const team = await ctx.newTeam();
    const a = await todosUrl(team);
    const b = await todosUrl(team);
    const todo = (await call('POST', a, team.owner.token, { todo: 'mine' })).json();
    expect((await call('PATCH', `${b}/${todo.id}`, team.owner.token, { done: true })).statusCode).toBe(404);
  });
});

const withTodo = (payload?: object) => async (team: TestTeam) => {
  const url = await todosUrl(team);
  const todo = (await call('POST', url, team.owner.token, { todo: 'matrix' })).json();
  return { url: `${url}/${todo.id}`, ...(payload ? { payload } : {}) };
};

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/versions/{versionId}/todos',
    shareLevel: 'read',
    build: async (team) => ({ url: await todosUrl(team) }),
  },
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/versions/{versionId}/todos',
    shareLevel: 'owner',
    build: async (team) => ({ url: await todosUrl(team), payload: { todo: 'matrix' } }),
  },
  {
    method: 'PATCH',
    path: '/api/v1/tracks/{id}/versions/{versionId}/todos/{todoId}',
    shareLevel: 'owner',
    build: withTodo({ done: true }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/tracks/{id}/versions/{versionId}/todos/{todoId}',
    shareLevel: 'owner',
    build: withTodo(),
  },
];

describeSecurityMatrix(ctx, cases);
