import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

const post = (url: string, token: string, payload?: object) =>
  ctx.request({ method: 'POST', url, token, ...(payload ? { payload } : {}) });

async function reviewSetup() {
  const team = await ctx.newTeam();
  const a = await ctx.addMember(team);
  const b = await ctx.addMember(team);
  const track = await ctx.newTrack(team);
  const base = `/api/v1/tracks/${track.id}/versions/${track.versionId}`;
  return { team, a, b, base, review: `${base}/review` };
}

describe('version reviews', () => {
  it('requests a review, shows it in the detail, and closes it approved when all approve', async () => {
    const { team, a, b, base, review } = await reviewSetup();
    const res = await post(`${review}/request`, team.owner.token, { reviewerIds: [a.id, b.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      reviewState: 'pending',
      review: { status: 'pending', requestedBy: team.owner.id, closedAt: null },
    });
    expect(res.json().review.reviewers).toHaveLength(2);
    expect((await post(`${review}/request`, team.owner.token, { reviewerIds: [a.id] })).statusCode).toBe(409);

    const listened = await post(`${review}/listened`, a.token);
    expect(listened.statusCode).toBe(200);
    const mine = listened.json().review.reviewers.find((r: { userId: string }) => r.userId === a.id);
    expect(mine.listenedAt).toEqual(expect.any(String));

    const first = await post(`${review}/decide`, a.token, { status: 'approved' });
    expect(first.json().reviewState).toBe('pending');
    const second = await post(`${review}/decide`, b.token, { status: 'approved' });
    expect(second.json()).toMatchObject({ reviewState: 'approved', review: { status: 'approved' } });
    const detail = await ctx.request({ method: 'GET', url: `${base}/detail`, token: team.owner.token });
    expect(detail.json().reviewState).toBe('approved');
    const list = await ctx.request({
      method: 'GET',
      url: base.replace(/\/\d+$/, ''),
      token: team.owner.token,
    });
    expect(list.json().items[0].reviewState).toBe('approved');
    expect((await post(`${review}/decide`, a.token, { status: 'approved' })).statusCode).toBe(409);
  });

  it('closes with changes requested as soon as one reviewer asks for them', async () => {
    const { team, a, b, review } = await reviewSetup();
    await post(`${review}/request`, team.owner.token, { reviewerIds: [a.id, b.id] });
    const res = await post(`${review}/decide`, b.token, { status: 'changes_requested' });
    expect(res.json()).toMatchObject({
      reviewState: 'changes_requested',
      review: { status: 'changes_requested' },
    });
    // A new request is possible once the previous one closed.
    expect((await post(`${review}/request`, team.owner.token, { reviewerIds: [a.id] })).statusCode).toBe(200);
  });

  it('lets only the requester withdraw and only reviewers listen or decide', async () => {
    const { team, a, b, review } = await reviewSetup();
    expect((await post(`${review}/withdraw`, team.owner.token)).statusCode).toBe(409);
    await post(`${review}/request`, team.owner.token, { reviewerIds: [a.id] });
    expect((await post(`${review}/withdraw`, a.token)).statusCode).toBe(403);
    expect((await post(`${review}/listened`, b.token)).statusCode).toBe(403);
    expect((await post(`${review}/decide`, b.token, { status: 'approved' })).statusCode).toBe(403);
    const withdrawn = await post(`${review}/withdraw`, team.owner.token);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toMatchObject({ reviewState: 'none', review: { status: 'withdrawn' } });
    expect((await post(`${review}/decide`, a.token, { status: 'approved' })).statusCode).toBe(409);
  });

  it('answers concurrent identical requests with one 200 and 409 conflict for the others', async () => {
    const { team, a, review } = await reviewSetup();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => post(`${review}/request`, team.owner.token, { reviewerIds: [a.id] })),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses, results.map((r) => r.body).join('\n')).toEqual([200, 409, 409, 409, 409, 409]);
    for (const refused of results.filter((r) => r.statusCode === 409))
      expect(refused.json().code).toBe('conflict');
  });

  it('refuses reviewers outside the team and malformed requests (400)', async () => {
    const { team, a, review } = await reviewSetup();
    const outsider = await ctx.newUser();
    const bad = await post(`${review}/request`, team.owner.token, { reviewerIds: [a.id, outsider.id] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: '/body/reviewerIds/1', message: expect.any(String) }]);
    for (const body of [{}, { reviewerIds: [] }, { reviewerIds: ['x'] }, { reviewerIds: [a.id, a.id] }]) {
      const res = await post(`${review}/request`, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    await post(`${review}/request`, team.owner.token, { reviewerIds: [a.id] });
    for (const body of [{}, { status: 'rejected' }]) {
      expect((await post(`${review}/decide`, a.token, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

const withOpenReview = (action: string, payload?: object) => async (team: TestTeam) => {
  const track = await ctx.newTrack(team);
  const review = `/api/v1/tracks/${track.id}/versions/${track.versionId}/review`;
  if (action !== 'request')
    await post(`${review}/request`, team.owner.token, { reviewerIds: [team.owner.id] });
  return { url: `${review}/${action}`, ...(payload ? { payload } : {}) };
};

const P = '/api/v1/tracks/{id}/versions/{versionId}/review';
const cases: MatrixCase[] = [
  {
    method: 'POST',
    path: `${P}/request`,
    shareLevel: 'owner',
    build: async (team) => ({
      ...(await withOpenReview('request')(team)),
      payload: { reviewerIds: [team.owner.id] },
    }),
  },
  { method: 'POST', path: `${P}/withdraw`, shareLevel: 'owner', build: withOpenReview('withdraw') },
  { method: 'POST', path: `${P}/listened`, shareLevel: 'owner', build: withOpenReview('listened') },
  {
    method: 'POST',
    path: `${P}/decide`,
    shareLevel: 'owner',
    build: withOpenReview('decide', { status: 'approved' }),
  },
];

describeSecurityMatrix(ctx, cases);
