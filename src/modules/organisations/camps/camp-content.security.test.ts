import { describe, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../../test/helpers/security-matrix.ts';
import { EXTENSION, itHidesFromOtherOrganisations, SPEC, securityBuilds } from '../security.test-support.ts';

const ctx = useTestContext();
const { campOf } = securityBuilds(ctx);

/** `/api/v1/camps/{slug}<suffix>` of the team's camp. */
const campRef =
  (suffix = '', payload?: (team: TestTeam) => Promise<object> | object) =>
  async (team: TestTeam) => {
    const camp = await campOf(team);
    return {
      url: `/api/v1/camps/${camp.slug}${suffix}`,
      ...(payload ? { payload: await payload(team) } : {}),
    };
  };

/** A track of the team in the camp's queue, submitted by its owner: the item's id. */
async function queued(team: TestTeam): Promise<number> {
  const [camp, track] = [await campOf(team), await ctx.newTrack(team)];
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v1/camps/${camp.id}/listening`,
    token: team.owner.token,
    payload: { trackId: track.id },
  });
  return res.json().id;
}

/** An upload of a camp file started by the team's owner: its id. */
async function pendingFile(team: TestTeam): Promise<number> {
  const camp = await campOf(team);
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v1/camps/${camp.id}/files`,
    token: team.owner.token,
    payload: { teamId: team.id, fileName: 'notes.txt', fileSize: 4, mediaType: 'text/plain' },
  });
  return res.json().id;
}

const itemPath = (payload?: object) => async (team: TestTeam) => {
  const camp = await campOf(team);
  return { url: `/api/v1/camps/${camp.id}/listening/${await queued(team)}`, ...(payload ? { payload } : {}) };
};

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/camps/{camp}/week', build: campRef('/week') },
  { method: 'GET', path: '/api/v1/camps/{camp}/listening', build: campRef('/listening') },
  {
    method: 'POST',
    path: '/api/v1/camps/{camp}/listening',
    build: campRef('/listening', async (team) => ({ trackId: (await ctx.newTrack(team)).id })),
  },
  {
    method: 'PUT',
    path: '/api/v1/camps/{camp}/listening/order',
    build: campRef('/listening/order', async (team) => ({ itemIds: [await queued(team)] })),
  },
  { method: 'PATCH', path: '/api/v1/camps/{camp}/listening/{itemId}', build: itemPath({ played: true }) },
  { method: 'DELETE', path: '/api/v1/camps/{camp}/listening/{itemId}', build: itemPath() },
  { method: 'GET', path: '/api/v1/camps/{camp}/files', build: campRef('/files') },
  {
    method: 'POST',
    path: '/api/v1/camps/{camp}/files',
    build: campRef('/files', (team) => ({
      teamId: team.id,
      fileName: 'a.txt',
      fileSize: 1,
      mediaType: 'text/plain',
    })),
  },
  {
    method: 'POST',
    path: '/api/v1/camps/{camp}/files/{fileId}/added',
    build: async (team) => ({
      url: `/api/v1/camps/${(await campOf(team)).id}/files/${await pendingFile(team)}/added`,
    }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/camps/{camp}/files/{fileId}',
    build: async (team) => ({
      url: `/api/v1/camps/${(await campOf(team)).id}/files/${await pendingFile(team)}`,
    }),
  },
];

const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/camps/{camp}/week': SPEC,
  'GET /api/v1/camps/{camp}/listening': SPEC,
  'POST /api/v1/camps/{camp}/listening': EXTENSION,
  'PUT /api/v1/camps/{camp}/listening/order': EXTENSION,
  'PATCH /api/v1/camps/{camp}/listening/{itemId}': EXTENSION,
  'DELETE /api/v1/camps/{camp}/listening/{itemId}': EXTENSION,
  'GET /api/v1/camps/{camp}/files': SPEC,
  'POST /api/v1/camps/{camp}/files': EXTENSION,
  'POST /api/v1/camps/{camp}/files/{fileId}/added': EXTENSION,
  'DELETE /api/v1/camps/{camp}/files/{fileId}': EXTENSION,
};

describe("routes of a camp's week, listening queue and files", () => {
  it('are session-only, extensions flagged, and the matrix covers every one', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.operationId.startsWith('camps.') && r.operationId !== 'camps.list',
      EXPECTED,
      cases,
    );
  });

  itHidesFromOtherOrganisations(ctx, cases);
});

describeSecurityMatrix(ctx, cases);
