import { describe, expect, it } from 'vitest';
import { requestAccountDeletion } from '../../../test/helpers/account.ts';
import { useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix } from '../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

const me = (token: string) => ctx.request({ method: 'GET', url: '/api/v1/auth/me', token });

describe('GET /auth/me', () => {
  it('answers the user and every team membership with its role, in team order', async () => {
    const user = await ctx.newUser({ name: 'Mia' });
    const owned = await ctx.newTeam(user);
    const administered = await ctx.newTeam();
    await ctx.addMember(administered, 'admin', user);
    const joined = await ctx.newTeam();
    await ctx.addMember(joined, 'member', user);
    await ctx.newTeam(); // a team the user is not in

    const res = await me(user.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'email', 'emailVerified', 'id', 'name', 'teams']);
    expect(body).toMatchObject({ id: user.id, email: user.email, name: 'Mia', emailVerified: false });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    expect(body.teams).toEqual([
      { id: owned.id, name: owned.name, role: 'owner' },
      { id: administered.id, name: administered.name, role: 'admin' },
      { id: joined.id, name: joined.name, role: 'member' },
    ]);
  });

  it('answers a user without teams with an empty list and no name as null', async () => {
    const user = await ctx.newUser();
    expect((await me(user.token)).json()).toMatchObject({ id: user.id, name: null, teams: [] });
  });

  it('ends every session at once when the user asks for deletion of the account', async () => {
    const user = await ctx.newUser();
    expect((await requestAccountDeletion(ctx, user.token)).statusCode).toBe(202);
    const res = await me(user.token);
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('{"error":"Unauthorized"}');
    const refresh = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refresh_token: user.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
  });
});

describeSecurityMatrix(ctx, [
  { method: 'GET', path: '/api/v1/auth/me', build: () => ({ url: '/api/v1/auth/me' }), teamScoped: false },
  {
    method: 'POST',
    path: '/api/v1/auth/logout',
    build: () => ({ url: '/api/v1/auth/logout' }),
    teamScoped: false,
  },
]);
