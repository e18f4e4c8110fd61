import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';

const ctx = useTestContext();

const post = (url: string, token: string, payload: object) =>
  ctx.request({ method: 'POST', url, token, payload });

type Detail = { path: string; message: string };
const detailsOf = (res: { json(): { details?: Detail[] } }) => res.json().details ?? [];

/** The request body schema of an operation, as the OpenAPI document shows it. */
async function bodySchemaOf(path: string, method: string) {
  const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const schema = doc.paths[path][method].requestBody.content['application/json'].schema;
  return schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
}

describe('camelCase and the specification’s snake_case body fields', () => {
  describe('POST /tracks', () => {
    it('creates a track from the camelCase body and from the snake_case one alike', async () => {
      const team = await ctx.newTeam();
      const camel = await post('/api/v1/tracks/', team.owner.token, {
        title: 'Camel',
        teamId: team.id,
        audioFileName: 'camel.wav',
        audioFileSize: 4,
      });
      expect(camel.statusCode, camel.body).toBe(201);
      expect(camel.json()).toMatchObject({ title: 'Camel', teamId: team.id });
      const snake = await post('/api/v1/tracks/', team.owner.token, {
        title: 'Snake',
        team_id: team.id,
        audio_file_name: 'snake.wav',
        audio_file_size: 4,
      });
      expect(snake.statusCode, snake.body).toBe(201);
      expect(snake.json()).toMatchObject({ title: 'Snake', teamId: team.id });
      for (const created of [camel.json(), snake.json()]) {
        const versions = await ctx.request({
          method: 'GET',
          url: `/api/v1/tracks/${created.id}/versions`,
          token: team.owner.token,
        });
        expect(versions.json().items[0]).toMatchObject({
          audioFileName: `${created.title.toLowerCase()}.wav`,
        });
      }
    });

    it('takes both names of a field when they agree, and mixes of the two', async () => {
      const team = await ctx.newTeam();
      const res = await post('/api/v1/tracks/', team.owner.token, {
        title: 'Both',
        teamId: team.id,
        team_id: team.id,
        audio_file_name: 'both.wav',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().teamId).toBe(team.id);
    });

    it('refuses both names with different values, and neither of a required field (400)', async () => {
      const team = await ctx.newTeam();
      const other = await ctx.newTeam(team.owner);
      const conflict = await post('/api/v1/tracks/', team.owner.token, {
        title: 'x',
        teamId: team.id,
        team_id: other.id,
        audioFileName: 'a.wav',
      });
      expect(conflict.statusCode).toBe(400);
      expect(conflict.json().code).toBe('validation_failed');
      expect(detailsOf(conflict)).toEqual([
        {
          path: '/body/team_id',
          message: 'is the older name of teamId and differs from it: send one of them (teamId is preferred)',
        },
      ]);
      const neither = await post('/api/v1/tracks/', team.owner.token, { title: 'x', audioFileName: 'a.wav' });
      expect(neither.statusCode).toBe(400);
      expect(detailsOf(neither)).toEqual([
        { path: '/body/teamId', message: 'is required (or its older name team_id)' },
      ]);
      // Every problem in one answer, each at the name it was sent under.
      const many = await post('/api/v1/tracks/', team.owner.token, {
        title: '',
        team_id: 'one',
        audio_file_name: 'a.wav',
        audioFileName: 'b.wav',
      });
      expect(many.statusCode).toBe(400);
      expect(detailsOf(many).map((d) => d.path)).toEqual(
        expect.arrayContaining(['/body/title', '/body/team_id', '/body/audio_file_name']),
      );
      const tracks = await ctx.request({
        method: 'GET',
        url: `/api/v1/tracks/?teamId=${team.id}`,
        token: team.owner.token,
      });
      expect(tracks.json().items).toEqual([]);
    });

    it('keeps another team out whichever name carries its id (404)', async () => {
      const team = await ctx.newTeam();
      const stranger = await ctx.newTeam();
      for (const body of [{ teamId: stranger.id }, { team_id: stranger.id }]) {
        const res = await post('/api/v1/tracks/', team.owner.token, {
          title: 'x',
          audioFileName: 'a.wav',
          ...body,
        });
        expect(res.statusCode, JSON.stringify(body)).toBe(404);
      }
    });

    it('documents both names, the snake_case ones deprecated', async () => {
      const schema = await bodySchemaOf('/api/v1/tracks', 'post');
      expect(schema.properties.teamId).toMatchObject({ type: 'integer' });
      expect(schema.properties.team_id).toMatchObject({
        type: 'integer',
        deprecated: true,
        description: 'Same as teamId; the camelCase name is preferred',
      });
      expect(schema.properties.audio_file_name).toMatchObject({ deprecated: true });
      expect(schema.properties.audioFileName.deprecated).toBeUndefined();
      expect(schema.required).toEqual(['title']);
      // One of the two names is required.
      expect(schema.allOf).toContainEqual({ anyOf: [{ required: ['teamId'] }, { required: ['team_id'] }] });
    });
  });

  describe('POST /tracks/reorder', () => {
    it('takes statusId/trackOrders as well as status_id/track_orders', async () => {
      const team = await ctx.newTeam();
      const a = await ctx.newTrack(team);
      const b = await ctx.newTrack(team);
      const camel = await post('/api/v1/tracks/reorder', team.owner.token, {
        statusId: 'idea',
        trackOrders: [
          { trackId: a.id, order: 1 },
          { trackId: b.id, order: 0 },
        ],
      });
      expect(camel.statusCode, camel.body).toBe(200);
      expect(camel.json()).toEqual({ statusId: 'idea', trackIds: [b.id, a.id] });
      const snake = await post('/api/v1/tracks/reorder', team.owner.token, {
        status_id: 'idea',
        track_orders: [
          { trackId: a.id, order: 0 },
          { trackId: b.id, order: 1 },
        ],
      });
      expect(snake.json()).toEqual({ statusId: 'idea', trackIds: [a.id, b.id] });
      const conflict = await post('/api/v1/tracks/reorder', team.owner.token, {
        statusId: 'idea',
        trackOrders: [{ trackId: a.id, order: 0 }],
        track_orders: [{ trackId: a.id, order: 1 }],
      });
      expect(conflict.statusCode).toBe(400);
      expect(detailsOf(conflict)[0]?.path).toBe('/body/track_orders');
      const missing = await post('/api/v1/tracks/reorder', team.owner.token, { status_id: 'idea' });
      expect(detailsOf(missing)).toEqual([
        { path: '/body/trackOrders', message: 'is required (or its older name track_orders)' },
      ]);
    });
  });

  describe('version and version-file upload URLs', () => {
    it('take audioFileName as well as audio_file_name', async () => {
      const team = await ctx.newTeam();
      const track = await ctx.newTrack(team);
      const versions = `/api/v1/tracks/${track.id}/versions`;
      for (const body of [{ audioFileName: 'v.wav' }, { audio_file_name: 'v.wav', audio_file_size: 10 }]) {
        const res = await post(`${versions}/create`, team.owner.token, body);
        expect(res.statusCode, res.body).toBe(201);
      }
      const files = `${versions}/${track.versionId}/files/create`;
      for (const body of [{ audioFileName: 'alt.wav', audioFileSize: 10 }, { audio_file_name: 'alt.wav' }]) {
        const res = await post(files, team.owner.token, body);
        expect(res.statusCode, res.body).toBe(201);
      }
      const neither = await post(files, team.owner.token, {});
      expect(detailsOf(neither)).toEqual([
        { path: '/body/audioFileName', message: 'is required (or its older name audio_file_name)' },
      ]);
      const conflict = await post(`${versions}/create`, team.owner.token, {
        audioFileName: 'v.wav',
        audio_file_size: 10,
        audioFileSize: 11,
      });
      expect(detailsOf(conflict).map((d) => d.path)).toEqual(['/body/audio_file_size']);
    });
  });
});
