import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';
import {
  type ApiClient,
  ApiError,
  createApiClient,
  idempotencyKey,
  pages,
  retry,
  unwrap,
  upload,
} from './index.ts';

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

describe('client helpers', () => {
  it('pages through a list by nextCursor, with the same filters', async () => {
    const team = await ctx.newTeam();
    for (const title of ['One', 'Two', 'Three']) await ctx.newTrack(team, { title });
    const api = createApiClient({ baseUrl, token: team.owner.token });
    const seen: string[][] = [];
    for await (const page of pages((cursor) =>
      api.GET('/api/v1/tracks', { params: { query: { teamId: team.id, limit: 2, sort: 'title', cursor } } }),
    )) {
      seen.push(page.items.map((track) => track.title));
    }
    expect(seen).toEqual([['One', 'Three'], ['Two']]);
  });

  it('asks a token function for the current token on every call, and leaves a call its own header', async () => {
    const [first, second] = [await ctx.newUser({ name: 'First' }), await ctx.newUser({ name: 'Second' })];
    let current = first.token;
    const api = createApiClient({ baseUrl, token: async () => current });
    expect(unwrap(await api.GET('/api/v1/auth/me')).name).toBe('First');
    current = second.token;
    expect(unwrap(await api.GET('/api/v1/auth/me')).name).toBe('Second');
    const own = await api.GET('/api/v1/auth/me', { headers: { authorization: `Bearer ${first.token}` } });
    expect(own.data?.name).toBe('First');
  });

  it('throws the error answer as an ApiError with the fields of its body', async () => {
    const user = await ctx.newUser();
    const api = signedIn(user.token);
    const error = await api
      .POST('/api/v1/teams', { body: { name: '' } })
      .then(unwrap)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((error as ApiError).details.map((detail) => detail.path)).toContain('/body/name');
    expect((error as ApiError).requestId).toEqual(expect.any(String));
    // A 204 has no data.
    const team = unwrap(await api.POST('/api/v1/teams', { body: { name: 'Short-lived' } }));
    const track = unwrap(
      await api.POST('/api/v1/tracks', {
        body: { title: 'Gone', team_id: team.id, audio_file_name: 'a.wav' },
      }),
    );
    const removed = unwrap(await api.DELETE('/api/v1/tracks/{id}', { params: { path: { id: track.id } } }));
    expect(removed).toBeUndefined();
  });

  it('retries what may succeed later, as Retry-After says, and throws the rest at once', async () => {
    const user = await ctx.newUser({ name: 'Patient' });
    let calls = 0;
    // The first answer is a 503 (the database was away); the second comes from the service.
    const flaky = createApiClient({
      baseUrl,
      token: user.token,
      fetch: async (request) =>
        ++calls === 1
          ? Response.json(
              { error: 'Service unavailable', code: 'unavailable' },
              {
                status: 503,
                headers: { 'retry-after': '0' },
              },
            )
          : fetch(request),
    });
    const me = await retry(async () => unwrap(await flaky.GET('/api/v1/auth/me')), { delayMs: 60_000 });
    expect(me.name).toBe('Patient');
    expect(calls).toBe(2);

    let attempts = 0;
    const missing = retry(async () => {
      attempts++;
      return unwrap(
        await signedIn(user.token).GET('/api/v1/tracks/{id}', { params: { path: { id: 999_999 } } }),
      );
    });
    await expect(missing).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expect(attempts).toBe(1);

    let failures = 0;
    const down = retry(
      async () => {
        failures++;
        throw new TypeError('fetch failed');
      },
      { attempts: 3, delayMs: 1 },
    );
    await expect(down).rejects.toThrow('fetch failed');
    expect(failures).toBe(3);
  });

  it('answers the first answer again to a retry with the same Idempotency-Key', async () => {
    const team = await ctx.newTeam();
    const api = signedIn(team.owner.token);
    const key = idempotencyKey();
    const create = () =>
      api.POST('/api/v1/tracks', {
        params: { header: { 'Idempotency-Key': key } },
        body: { title: 'Once', team_id: team.id, audio_file_name: 'once.wav' },
      });
    const first = await create();
    const again = await create();
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(unwrap(again).id).toBe(unwrap(first).id);
    expect(idempotencyKey()).not.toBe(key);
  });

  it('makes version 4 UUID keys where crypto.randomUUID is missing (insecure browser contexts)', () => {
    const { getRandomValues } = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(globalThis.crypto) });
    try {
      const keys = new Set(Array.from({ length: 50 }, () => idempotencyKey()));
      expect(keys.size).toBe(50);
      for (const key of keys)
        expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('throws a refused upload as an ApiError', async () => {
    const refused = upload(
      {
        uploadUrl: `${baseUrl}/api/v1/files/upload?token=not-a-signature`,
        headers: { 'content-type': 'text/plain' },
      },
      new TextEncoder().encode('lyrics'),
    );
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 403, code: 'invalid_signature' });
  });
});
