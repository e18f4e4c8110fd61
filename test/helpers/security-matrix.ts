import { eq } from 'drizzle-orm';
import type { HTTPMethods } from 'fastify';
import { describe, expect, it } from 'vitest';
import { trackTeams } from '../../src/db/schema/index.ts';
import { SCOPES } from '../../src/plugins/auth.ts';
import { documentedPath } from '../../src/plugins/openapi.ts';
import type { TestContext, TestTeam, TestUser } from './context.ts';

/**
 * What a team a track is shared with may do on a track route: `read` and `comment` routes answer its members,
 * `owner` routes (changes and deletions of what the owning team holds, moderation of others' comments,
 * sharing) refuse them, its owners and admins included, with 403.
 */
export type ShareLevel = 'read' | 'comment' | 'owner';

type Built = { url: string; payload?: unknown };

export type MatrixCase = {
  method: HTTPMethods;
  /** The route's path as documented, e.g. `/api/v1/teams/{id}/api-keys`: its auth class is read from the app. */
  path: string;
  /**
   * Builds a fresh request against resources of `team` (made by `team.owner`); called once per probe. Tracks
   * it makes with `ctx.newTrack(team)` are shared with `team.shareWith`.
   */
  build: (team: TestTeam) => Promise<Built> | Built;
  /** Whether the route touches a team's data (outsiders and other teams' keys must get 404). Default true. */
  teamScoped?: boolean;
  /**
   * A track route: what a team the case's track is shared with may do there (probed with a member and an
   * admin of that team). Its resources are made by a plain member, unless `builtByOwner`.
   */
  shareLevel?: ShareLevel;
  /** The build needs more than a plain member may do (the former-member probe then builds as the owner). */
  builtByOwner?: boolean;
  /**
   * On an `owner` route, whoever made the resource may still change it from a team the track is shared with
   * (their own comment): a former member who made it keeps that.
   */
  makerKeeps?: boolean;
};

const UNAUTHORIZED = '{"error":"Unauthorized"}';

/**
 * The security probes every route gets: no token, garbage token, outsider session, former member, another
 * team's key, a key without the write scope, a key on a session-only route; on track routes, the members
 * and admins of a team the track is shared with.
 */
export function describeSecurityMatrix(ctx: TestContext, cases: MatrixCase[]): void {
  describe('security matrix', () => {
    for (const c of cases) {
      const teamScoped = c.teamScoped ?? true;
      const entry = () => {
        const found = ctx.app.routeTable.find(
          (r) => r.method === c.method && r.path === documentedPath(c.path),
        );
        if (!found) throw new Error(`No route ${c.method} ${c.path}`);
        return found;
      };
      const sendBuilt = ({ url, payload }: Built, token: string | undefined) =>
        ctx.request({
          method: c.method,
          url,
          token,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
      const send = async (team: TestTeam, token: string | undefined) => sendBuilt(await c.build(team), token);

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

          it('leaves a removed admin nothing of the team: their session, shares and keys (404, 403, 401)', async () => {
            const team = await ctx.newTeam();
            const former = await ctx.addMember(team, 'admin');
            const ownTeam = await ctx.newTeam(former);
            const key = await apiKeyBy(ctx, team, former);
            // On track routes the former admin makes the resources and shares the track into a team of theirs.
            const built = await c.build(
              c.shareLevel && !c.builtByOwner ? { ...team, owner: former, shareWith: [ownTeam.id] } : team,
            );
            await removeMember(ctx, team, former);

            const res = await sendBuilt(built, former.token);
            if (!c.shareLevel) {
              expect(res.statusCode, res.body).toBe(404);
              expect(res.json().code).toBe('not_found');
            } else if (c.shareLevel === 'owner' && !c.builtByOwner && !c.makerKeeps) {
              // The share stays (it is the team's), but it only ever lets its holder read and comment.
              expect(res.statusCode, res.body).toBe(403);
            } else if (c.builtByOwner) {
              expect(res.statusCode, res.body).toBe(404);
            } else if (c.shareLevel !== 'owner') {
              expect(res.statusCode, res.body).toBeLessThan(400);
            }
            if (entry().auth.kind !== 'anonymous') {
              const byKey = await sendBuilt(built, key);
              expect(byKey.statusCode, byKey.body).toBe(401);
              expect(byKey.body).toBe(UNAUTHORIZED);
            }
          });
        }

        const level = c.shareLevel;
        if (level) {
          it(`lets a team the track is shared with ${level === 'owner' ? 'read only (403 here)' : level}`, async () => {
            const team = await ctx.newTeam();
            const guest = await ctx.newTeam(team.owner);
            const [guestMember, guestAdmin] = [
              await ctx.addMember(guest, 'member'),
              await ctx.addMember(guest, 'admin'),
            ];
            const built = await c.build({ ...team, shareWith: [guest.id] });
            const shares = await ctx.database.db
              .select()
              .from(trackTeams)
              .where(eq(trackTeams.teamId, guest.id));
            expect(shares.length, 'the build shares its track (ctx.newTrack)').toBeGreaterThan(0);
            if (level !== 'owner') {
              const res = await sendBuilt(built, guestMember.token);
              expect(res.statusCode, res.body).toBeLessThan(400);
              return;
            }
            for (const user of [guestMember, guestAdmin]) {
              const res = await sendBuilt(built, user.token);
              expect(res.statusCode, res.body).toBe(403);
              expect(res.json().code).toBe('forbidden');
            }
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

/** A key with every scope, created through the API by `creator` (an owner or admin of the team). */
async function apiKeyBy(ctx: TestContext, team: TestTeam, creator: TestUser): Promise<string> {
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/api-keys`,
    token: creator.token,
    payload: { name: 'made before leaving', scopes: [...SCOPES] },
  });
  if (res.statusCode !== 201) throw new Error(`api key failed: ${res.statusCode} ${res.body}`);
  return res.json().key;
}

/** Removes a member through the API, as the team's owner does. */
async function removeMember(ctx: TestContext, team: TestTeam, member: TestUser): Promise<void> {
  const res = await ctx.request({
    method: 'DELETE',
    url: `/api/v1/teams/${team.id}/members/${member.id}`,
    token: team.owner.token,
  });
  if (res.statusCode !== 204) throw new Error(`member removal failed: ${res.statusCode} ${res.body}`);
}

/** An area's routes as `METHOD /path` with their auth class (`session`, `keyOrSession:<scope>`, ...) and extension flag. */
export type ExpectedAuthClasses = Record<string, { auth: string; extension: boolean }>;

/**
 * The routes `select` picks are exactly those `expected` names, each with its auth class and `x-extension`
 * flag as expected, and the security matrix `cases` probe every one of them.
 */
export async function expectAreaAuthClasses(
  ctx: TestContext,
  select: (route: TestContext['app']['routeTable'][number]) => boolean,
  expected: ExpectedAuthClasses,
  cases: MatrixCase[],
): Promise<void> {
  const routes = ctx.app.routeTable.filter(select);
  const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const covered = new Set(cases.map((c) => `${c.method} ${c.path}`));
  expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(Object.keys(expected).sort());
  for (const route of routes) {
    const name = `${route.method} ${route.path}`;
    const auth =
      route.auth.kind === 'keyOrSession' && route.auth.scope
        ? `keyOrSession:${route.auth.scope}`
        : route.auth.kind;
    expect(auth, name).toBe(expected[name]!.auth);
    const operation = doc.paths[route.path][route.method.toLowerCase()];
    expect(operation['x-extension'] === true, name).toBe(expected[name]!.extension);
    expect(covered, name).toContain(name);
  }
  expect(cases).toHaveLength(routes.length);
}
