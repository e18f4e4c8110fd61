import type { HTTPMethods } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/plugins/auth.ts';
import type { TestContext, TestTeam } from './context.ts';

export type MatrixCase = {
  method: HTTPMethods;
  /** The route's path as documented, e.g. `/api/v1/teams/{id}/api-keys`: its auth class is read from the app. */
  path: string;
  /** Builds a fresh request against resources of `team` (owned by `team.owner`); called once per probe. */
  build: (team: TestTeam) => Promise<{ url: string; payload?: unknown }> | { url: string; payload?: unknown };
  /** Whether the route touches a team's data (outsiders and other teams' keys must get 404). Default true. */
  teamScoped?: boolean;
};

const UNAUTHORIZED = '{"error":"Unauthorized"}';

/**
 * The security probes every route gets: no token, garbage token, outsider session, another team's key,
 * a key without the write scope, a key on a session-only route.
 */
export function describeSecurityMatrix(ctx: TestContext, cases: MatrixCase[]): void {
  describe('security matrix', () => {
    for (const c of cases) {
      const teamScoped = c.teamScoped ?? true;
      const entry = () => {
        const found = ctx.app.routeTable.find((r) => r.method === c.method && r.path === c.path);
        if (!found) throw new Error(`No route ${c.method} ${c.path}`);
        return found;
      };
      const send = async (team: TestTeam, token: string | undefined) => {
        const { url, payload } = await c.build(team);
        return ctx.request({
          method: c.method,
          url,
          token,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
      };

      describe(`${c.method} ${c.path}`, () => {
        it('refuses a request without a token, or with a garbage one, with exactly 401', async () => {
          const team = await ctx.newTeam();
          for (const token of [undefined, 'garbage', 'tmw_live_garbage', `${team.owner.token}x`]) {
            const res = await send(team, token);
            expect(res.statusCode, String(token)).toBe(401);
            expect(res.body).toBe(UNAUTHORIZED);
          }
        });

        if (teamScoped) {
          it("hides the team's data from a signed-in outsider (404)", async () => {
            const team = await ctx.newTeam();
            const outsider = await ctx.newUser();
            const res = await send(team, outsider.token);
            expect(res.statusCode).toBe(404);
            expect(res.json().code).toBe('not_found');
          });
        }

        it('applies the API-key rules of its auth class', async () => {
          const cls = entry().auth;
          const team = await ctx.newTeam();
          const fullKey = await ctx.newApiKey(team, [...SCOPES]);
          if (cls.kind === 'session') {
            const res = await send(team, fullKey);
            expect(res.statusCode).toBe(403);
            expect(res.json().code).toBe('session_required');
            return;
          }
          if (cls.kind === 'anonymous') return;
          if (teamScoped) {
            const other = await ctx.newTeam();
            const foreignKey = await ctx.newApiKey(other, [...SCOPES]);
            const foreign = await send(team, foreignKey);
            expect(foreign.statusCode).toBe(404);
          }
          if (cls.kind === 'keyOrSession' && cls.scope) {
            const readOnly = await ctx.newApiKey(
              team,
              SCOPES.filter((s) => s !== cls.scope),
            );
            const res = await send(team, readOnly);
            expect(res.statusCode).toBe(403);
            expect(res.json()).toMatchObject({ code: 'insufficient_scope' });
            expect(res.json().error).toContain(cls.scope);
          }
          const own = await send(team, fullKey);
          expect(own.statusCode, own.body).toBeLessThan(400);
        });
      });
    }
  });
}
