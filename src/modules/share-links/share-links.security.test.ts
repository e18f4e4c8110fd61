import { describe, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { shareLinkHelpers } from './share-links.test-support.ts';

const ctx = useTestContext();
const { newLink } = shareLinkHelpers(ctx);

/** A link of the team with one recipient, made by its owner; `suffix` goes after `/share-links/{id}`. */
const onLink =
  (suffix = '', payload?: object) =>
  async (team: TestTeam) => {
    const link = await newLink(team, { recipients: [`r-${ctx.unique()}@example.test`] });
    return { url: `/api/v1/share-links/${link.id}${suffix}`, ...(payload ? { payload } : {}) };
  };

const cases: MatrixCase[] = [
  {
    method: 'POST',
    path: '/api/v1/share-links',
    build: async (team) => ({
      url: '/api/v1/share-links',
      payload: { teamId: team.id, target: { trackId: (await ctx.newTrack(team)).id } },
    }),
  },
  {
    method: 'GET',
    path: '/api/v1/share-links',
    build: (team) => ({ url: `/api/v1/share-links?teamId=${team.id}` }),
  },
  { method: 'GET', path: '/api/v1/share-links/{id}', build: onLink() },
  { method: 'PATCH', path: '/api/v1/share-links/{id}', build: onLink('', { title: 'Matrix' }) },
  { method: 'POST', path: '/api/v1/share-links/{id}/revoke', build: onLink('/revoke') },
  {
    method: 'POST',
    path: '/api/v1/share-links/{id}/recipients',
    build: async (team) => onLink('/recipients', { email: `m-${ctx.unique()}@example.test` })(team),
  },
  {
    method: 'DELETE',
    path: '/api/v1/share-links/{id}/recipients/{recipientId}',
    build: async (team) => {
      const link = await newLink(team, { recipients: [`r-${ctx.unique()}@example.test`] });
      return { url: `/api/v1/share-links/${link.id}/recipients/${link.recipients[0].id}` };
    },
  },
  { method: 'GET', path: '/api/v1/share-links/{id}/activity', build: onLink('/activity') },
];

const managed = { auth: 'keyOrSession:tracks:write', extension: true };

describe('review link routes', () => {
  it('all take a session or a key with tracks:write, and are extensions', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.path.startsWith('/api/v1/share-links'),
      Object.fromEntries(cases.map((c) => [`${c.method} ${c.path}`, managed])),
      cases,
    );
  });
});

describeSecurityMatrix(ctx, cases);
