import type { TestContext, TestTeam } from '../../../test/helpers/context.ts';
import { versionStems } from '../../db/schema/index.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Helpers of the review-link tests: calls with a token, links and stems made the way clients make them. */
export function shareLinkHelpers(ctx: TestContext) {
  /** A call with `token`; with `expected`, any other status throws. */
  async function call(method: Method, url: string, token: string, payload?: object, expected?: number) {
    const res = await ctx.request({ method, url, token, ...(payload ? { payload } : {}) });
    if (expected !== undefined && res.statusCode !== expected)
      throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return { status: res.statusCode, body: res.body ? res.json() : null };
  }

  /** A link of the team on `target` (a new track of the team when not given), made by `token` (the owner). */
  async function newLink(team: TestTeam, fields: Record<string, unknown> = {}, token = team.owner.token) {
    const target = fields.target ?? { trackId: (await ctx.newTrack(team)).id };
    const payload = { teamId: team.id, ...fields, target };
    return (await call('POST', '/api/v1/share-links', token, payload, 201)).body;
  }

  /** A stem of the version (its row only: the links care about which version holds it). */
  async function newStem(versionId: number, name = `Stem ${ctx.unique()}`): Promise<number> {
    const [row] = await ctx.database.db
      .insert(versionStems)
      .values({ versionId, name, position: 0 })
      .returning({ id: versionStems.id });
    return row!.id;
  }

  return { call, newLink, newStem };
}
