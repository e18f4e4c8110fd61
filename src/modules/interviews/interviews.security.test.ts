import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { interviewHelpers } from './interviews.test-support.ts';

const ctx = useTestContext();
const { newInterview, publish } = interviewHelpers(ctx);

const interviewUrl =
  (suffix = '', payload?: object) =>
  async (team: TestTeam): Promise<{ url: string; payload?: unknown }> => {
    const interview = await newInterview(team);
    return { url: `/api/v1/interviews/${interview.id}${suffix}`, ...(payload ? { payload } : {}) };
  };

const teamSlugOf = async (team: TestTeam): Promise<string> =>
  (await ctx.request({ method: 'GET', url: `/api/v1/teams/${team.id}`, token: team.owner.token })).json()
    .slug;

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/interviews',
    build: (team) => ({ url: `/api/v1/interviews/?teamId=${team.id}` }),
  },
  {
    method: 'POST',
    path: '/api/v1/interviews',
    build: (team) => ({ url: '/api/v1/interviews/', payload: { teamId: team.id, title: 'Matrix' } }),
  },
  { method: 'GET', path: '/api/v1/interviews/{id}', build: interviewUrl() },
  { method: 'PUT', path: '/api/v1/interviews/{id}', build: interviewUrl('', { title: 'Changed' }) },
  { method: 'DELETE', path: '/api/v1/interviews/{id}', build: interviewUrl() },
  { method: 'GET', path: '/api/v1/interviews/{id}/articles', build: interviewUrl('/articles') },
  { method: 'GET', path: '/api/v1/interviews/{id}/videos', build: interviewUrl('/videos') },
  { method: 'GET', path: '/api/v1/interviews/{id}/questions', build: interviewUrl('/questions') },
  {
    method: 'GET',
    path: '/api/v1/interviews/questions/team',
    build: (team) => ({ url: `/api/v1/interviews/questions/team?teamId=${team.id}` }),
  },
  {
    method: 'GET',
    path: '/api/v1/interviews/by-slug/{a}/{b}',
    build: async (team) => {
      const interview = await newInterview(team);
      return { url: `/api/v1/interviews/by-slug/${await teamSlugOf(team)}/${interview.slug}` };
    },
  },
  // Public reads: any valid token of any team may read them (checked below), so no outsider probes.
  {
    method: 'GET',
    path: '/api/v1/interviews/public/teams/{a}',
    build: async (team) => ({ url: `/api/v1/interviews/public/teams/${await teamSlugOf(team)}` }),
    teamScoped: false,
  },
  {
    method: 'GET',
    path: '/api/v1/interviews/public/teams/{a}/{b}',
    build: async (team) => {
      const interview = await publish(team, await newInterview(team));
      return { url: `/api/v1/interviews/public/teams/${await teamSlugOf(team)}/${interview.slug}` };
    },
    teamScoped: false,
  },
];

/** S as the specification marks them, the two public reads N (any token). */
const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/interviews': { auth: 'session', extension: false },
  'POST /api/v1/interviews': { auth: 'session', extension: false },
  'GET /api/v1/interviews/{id}': { auth: 'session', extension: false },
  'PUT /api/v1/interviews/{id}': { auth: 'session', extension: false },
  'DELETE /api/v1/interviews/{id}': { auth: 'session', extension: false },
  'GET /api/v1/interviews/{id}/articles': { auth: 'session', extension: false },
  'GET /api/v1/interviews/{id}/videos': { auth: 'session', extension: false },
  'GET /api/v1/interviews/{id}/questions': { auth: 'session', extension: false },
  'GET /api/v1/interviews/questions/team': { auth: 'session', extension: false },
  'GET /api/v1/interviews/by-slug/{a}/{b}': { auth: 'session', extension: false },
  'GET /api/v1/interviews/public/teams/{a}': { auth: 'anyToken', extension: false },
  'GET /api/v1/interviews/public/teams/{a}/{b}': { auth: 'anyToken', extension: false },
};

describe('interviews area routes', () => {
  it('declare the auth classes of the specification, and the matrix covers every one of them', async () => {
    await expectAreaAuthClasses(ctx, (r) => r.operationId.startsWith('interviews.'), EXPECTED, cases);
  });

  it('let a key and a session of another team read the public paths, and nothing else', async () => {
    const team = await ctx.newTeam();
    const stranger = await ctx.newTeam();
    const strangerKey = await ctx.newApiKey(stranger);
    const interview = await publish(team, await newInterview(team));
    const slug = await teamSlugOf(team);
    for (const token of [strangerKey, stranger.owner.token]) {
      const list = await ctx.request({
        method: 'GET',
        url: `/api/v1/interviews/public/teams/${slug}`,
        token,
      });
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().items.map((i: { slug: string }) => i.slug)).toEqual([interview.slug]);
      const one = await ctx.request({
        method: 'GET',
        url: `/api/v1/interviews/public/teams/${slug}/${interview.slug}`,
        token,
      });
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json().title).toBe(interview.title);
    }
    const bySlug = await ctx.request({
      method: 'GET',
      url: `/api/v1/interviews/by-slug/${slug}/${interview.slug}`,
      token: stranger.owner.token,
    });
    expect(bySlug.statusCode).toBe(404);
    const byId = await ctx.request({
      method: 'GET',
      url: `/api/v1/interviews/${interview.id}`,
      token: strangerKey,
    });
    expect(byId.statusCode).toBe(403);
    expect(byId.json().code).toBe('session_required');
  });
});

describeSecurityMatrix(ctx, cases);
