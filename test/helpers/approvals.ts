import type { TestContext, TestTeam, TestUser } from './context.ts';

type Decision = 'approved' | 'changes_requested';

/** Helpers of the approval tests: status requirements, reviews and moves through the public API. */
export function approvalHelpers(ctx: TestContext) {
  /** Sets the team's statuses of `kind` to the default list with `requires` on the statuses named. */
  async function requireOn(
    team: TestTeam,
    kind: 'tracks' | 'albums',
    requires: Record<string, Record<string, unknown>>,
  ) {
    const current = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
    });
    const list = (current.json()[kind] as { id: string }[]).map((s) =>
      requires[s.id] ? { ...s, requires: requires[s.id] } : s,
    );
    const res = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${team.id}/status-config`,
      token: team.owner.token,
      payload: { patch: { [kind]: list } },
    });
    if (res.statusCode !== 200) throw new Error(`status config failed: ${res.statusCode} ${res.body}`);
  }

  /** A review of the track's version asked by the owner, each reviewer deciding in turn as given. */
  async function review(
    team: TestTeam,
    track: { id: number; versionId: number },
    decisions: [TestUser, Decision][],
  ) {
    const base = `/api/v1/tracks/${track.id}/versions/${track.versionId}/review`;
    const asked = await ctx.request({
      method: 'POST',
      url: `${base}/request`,
      token: team.owner.token,
      payload: { reviewerIds: [...new Set(decisions.map(([u]) => u.id))] },
    });
    if (asked.statusCode !== 200) throw new Error(`review request failed: ${asked.statusCode} ${asked.body}`);
    for (const [user, status] of decisions) {
      const res = await ctx.request({
        method: 'POST',
        url: `${base}/decide`,
        token: user.token,
        payload: { status },
      });
      if (res.statusCode !== 200) throw new Error(`decision failed: ${res.statusCode} ${res.body}`);
    }
  }

  const move = (kind: 'tracks' | 'albums', id: number, status: string, token: string) =>
    ctx.request({ method: 'PATCH', url: `/api/v1/${kind}/${id}/status`, token, payload: { status } });

  async function statusOf(kind: 'tracks' | 'albums', id: number, token: string): Promise<string> {
    const res = await ctx.request({ method: 'GET', url: `/api/v1/${kind}/${id}`, token });
    return res.json().statusId;
  }

  return { requireOn, review, move, statusOf };
}
