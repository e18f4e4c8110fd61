import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';
import { type ApiClient, createApiClient } from './index.ts';

const ctx = useTestContext();
let baseUrl = '';

beforeAll(async () => {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ctx.app.server.close();
});

function signedIn(token: string): ApiClient {
  return createApiClient({ baseUrl, headers: { authorization: `Bearer ${token}` } });
}

// The client's types come from the OpenAPI document: a path, field or answer that changes shape makes
// this file fail to type-check, and a behaviour that changes makes it fail here.
describe('typed client', () => {
  it('signs up, creates a team and a track, and reads them back', async () => {
    const anonymous = createApiClient({ baseUrl });
    const signup = await anonymous.POST('/api/v1/auth/signup', {
      body: {
        email: `client-${Date.now()}@example.test`,
        password: 'a long enough password',
        name: 'Client',
      },
    });
    expect(signup.response.status).toBe(201);
    const api = signedIn(signup.data!.access_token);

    const me = await api.GET('/api/v1/auth/me');
    expect(me.data?.name).toBe('Client');

    const team = await api.POST('/api/v1/teams', { body: { name: 'Typed' } });
    expect(team.response.status).toBe(201);
    const teamId = team.data!.id;

    const created = await api.POST('/api/v1/tracks', {
      body: { title: 'Through the client', team_id: teamId, audio_file_name: 'take.wav' },
    });
    expect(created.response.status).toBe(201);

    const track = await api.GET('/api/v1/tracks/{id}', { params: { path: { id: created.data!.id } } });
    expect(track.data?.title).toBe('Through the client');

    const page = await api.GET('/api/v1/tracks', { params: { query: { teamId, limit: 10 } } });
    expect(page.data?.items.map((t) => t.id)).toEqual([created.data!.id]);
    expect(page.data?.nextCursor).toBeNull();
  });

  it('answers errors in the contract envelope', async () => {
    const user = await ctx.newUser();
    const missing = await signedIn(user.token).GET('/api/v1/tracks/{id}', {
      params: { path: { id: 999_999 } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe('not_found');
  });
});
