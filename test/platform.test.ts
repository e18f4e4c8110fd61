import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestContext } from './helpers/context.ts';
import endpoints from './spec-endpoints.json' with { type: 'json' };

const ctx = useTestContext();

const ANONYMOUS = new Set(['GET /api/v1/health', 'GET /api/v1/testimonials']);
const CREDENTIAL_EXCHANGES = new Set(['POST /api/v1/auth/login', 'POST /api/v1/auth/refresh']);

function concrete(path: string): string {
  return path.replace(/\{[^}]+\}/g, '1');
}

describe('the 401 sweep', () => {
  const guarded = endpoints.filter(
    (e) => !ANONYMOUS.has(`${e.method} ${e.path}`) && !CREDENTIAL_EXCHANGES.has(`${e.method} ${e.path}`),
  );

  it('covers every specified endpoint but the anonymous ones', () => {
    expect(endpoints).toHaveLength(231);
    expect(guarded.length).toBe(231 - 4);
  });

  it.each(guarded.map((e) => [e.method, e.path]))(
    '%s %s answers exactly {"error":"Unauthorized"} without a token',
    async (method, path) => {
      for (const url of [concrete(path), `${concrete(path)}?limit=abc`]) {
        const res = await ctx.request({
          method: method as 'GET',
          url,
          payload: method === 'GET' ? undefined : { junk: 1 },
        });
        expect(res.statusCode, url).toBe(401);
        expect(res.body).toBe('{"error":"Unauthorized"}');
      }
    },
  );

  it('refuses garbage and malformed bearer headers the same way', async () => {
    for (const authorization of [
      'Bearer',
      'Bearer not.a.jwt',
      'Basic abc',
      'Bearer tmw_live_nope',
      `Bearer ${'x'.repeat(5000)}`,
    ]) {
      const res = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', headers: { authorization } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
    }
  });
});

describe('transport', () => {
  it('serves health with and without a trailing slash, with a request id', async () => {
    for (const url of ['/api/v1/health', '/api/v1/health/']) {
      const res = await ctx.request({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', version: expect.any(String), database: 'ok' });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('gives every answer a request id, refusals and unknown routes included', async () => {
    const team = await ctx.newTeam();
    const answers = await Promise.all([
      ctx.request({ method: 'GET', url: '/api/v1/tracks/1' }), // 401
      ctx.request({ method: 'GET', url: '/api/v1/no-such-route', token: team.owner.token }), // 404
      ctx.request({ method: 'GET', url: '/api/v1/tracks/?limit=0', token: team.owner.token }), // 400
      ctx.request({ method: 'GET', url: '/api/v1/tracks/999999999', token: team.owner.token }), // 404 thrown
      ctx.request({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: '{',
        headers: { 'content-type': 'application/json' },
      }), // 400 parse
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([401, 404, 400, 404, 400]);
    for (const res of answers) expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a well-formed incoming request id and replaces a malformed one', async () => {
    const kept = await ctx.request({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await ctx.request({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'a b\u0001' },
    });
    expect(replaced.headers['x-request-id']).not.toBe('a b\u0001');
  });

  it('answers unknown routes with 401 first, then a JSON 404 once authenticated', async () => {
    const user = await ctx.newUser();
    const anonymous = await ctx.request({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(anonymous.statusCode).toBe(401);
    const res = await ctx.request({ method: 'GET', url: '/api/v1/no-such-thing', token: user.token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('bad input', () => {
  const signup = (
    payload: string,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ) => ctx.request({ method: 'POST', url: '/api/v1/auth/signup', payload, headers });

  it('answers invalid JSON with 400 invalid_json', async () => {
    const res = await signup('{"email": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'invalid_json' });
  });

  it('answers another content type with 415', async () => {
    const res = await signup('email=a', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
    const text = await signup('hello', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
  });

  it('reads JSON bodies as UTF-8 sent as they are: other bytes, charsets and codings change nothing', async () => {
    const email = `bytes-${Date.now()}@example.test`;
    const json = JSON.stringify({ email, password: 'secret-pw-1' });
    const refused = [
      {
        payload: Buffer.concat([
          Buffer.from(json.slice(0, -2)),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('"}'),
        ]),
        headers: { 'content-type': 'application/json' },
        status: 400,
        code: 'invalid_json',
        error: 'The request body is not valid UTF-8',
      },
      {
        payload: gzipSync(json),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        status: 415,
        code: 'unsupported_media_type',
        error: 'Request bodies are read as sent: Content-Encoding gzip is not accepted',
      },
      {
        payload: Buffer.from(json, 'latin1'),
        headers: { 'content-type': 'application/json; charset=ISO-8859-1' },
        status: 415,
        code: 'unsupported_media_type',
        error: 'JSON bodies are UTF-8: charset iso-8859-1 is not accepted',
      },
    ];
    for (const { payload, headers, status, code, error } of refused) {
      const res = await ctx.request({ method: 'POST', url: '/api/v1/auth/signup', payload, headers });
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { error, code } });
    }
    const login = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: 'secret-pw-1' },
    });
    expect(login.statusCode).toBe(401);

    const declared = await signup(json, {
      'content-type': 'application/json; charset="UTF-8"',
      'content-encoding': 'identity',
    });
    expect(declared.statusCode).toBe(201);
  });

  it('refuses a prototype key in a body as invalid JSON', async () => {
    const res = await signup(
      '{"__proto__": {"admin": true}, "email": "a@b.test", "password": "secret-pw-1"}',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_json');
  });

  it('answers a body over the limit with 413', async () => {
    const res = await signup(JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(2 * 1024 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });

  it('refuses unknown fields and wrong types with details, and changes nothing', async () => {
    const email = `typo-${Date.now()}@example.test`;
    const res = await signup(JSON.stringify({ email, password: 12345678, nmae: 'x' }));
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(body.details).toEqual(
      expect.arrayContaining([
        { path: '/body/nmae', message: 'is not an accepted field' },
        { path: '/body/password', message: expect.any(String) },
      ]),
    );
    const login = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: '12345678' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('answers non-numeric and out-of-range ids with 400, not 500', async () => {
    const team = await ctx.newTeam();
    const id = String(team.id);
    const lookAlikes = [`0x${team.id.toString(16)}`, `+${id}`, `0${id}`, `${id}.0`, `%20${id}`, `${id}e0`];
    for (const id of ['abc', '0', '-1', '99999999999', '1.5', ...lookAlikes]) {
      const res = await ctx.request({
        method: 'GET',
        url: `/api/v1/teams/${id}/api-keys`,
        token: team.owner.token,
      });
      expect(res.statusCode, id).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details[0].path).toBe('/params/id');
    }
  });

  it('answers limits outside 1..200 with 400', async () => {
    const team = await ctx.newTeam();
    for (const limit of ['0', '201', 'x', '2.5', '0x5', '1e1', '+5', '05', '%205', '']) {
      const res = await ctx.request({
        method: 'GET',
        url: `/api/v1/teams/${team.id}/api-keys?limit=${limit}`,
        token: team.owner.token,
      });
      expect(res.statusCode, limit).toBe(400);
    }
    const bad = await ctx.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/api-keys?cursor=%%%`,
      token: team.owner.token,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('text the database cannot hold', () => {
  it('answers a NUL character anywhere in a body, a query or a path with 400, and changes nothing', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const token = team.owner.token;
    const patch = (payload: object) =>
      ctx.request({ method: 'PATCH', url: `/api/v1/tracks/${track.id}`, token, payload });
    for (const [payload, path] of [
      [{ title: 'a\u0000b' }, '/body/title'],
      [{ tags: ['ok', 'x\u0000'] }, '/body/tags/1'],
      [{ artist: 'half \ud800 a pair' }, '/body/artist'],
      [{ notes: 'x\udc00' }, '/body/notes'],
    ] as const) {
      const res = await patch(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details).toEqual([
        { path, message: 'must be text without NUL characters or unpaired surrogates' },
      ]);
    }
    const query = await ctx.request({
      method: 'GET',
      url: `/api/v1/tracks/?teamId=${team.id}&q=a%00`,
      token,
    });
    expect(query.statusCode).toBe(400);
    expect(query.json().details[0].path).toBe('/query/q');
    const detail = await ctx.request({ method: 'GET', url: `/api/v1/tracks/${track.id}`, token });
    expect(detail.json()).toMatchObject({ title: track.title, tags: [] });
  });

  it('answers integers beyond exact JSON numbers and the year 0000 with 400', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const token = team.owner.token;
    const cover = await ctx.request({
      method: 'POST',
      url: `/api/v1/tracks/${track.id}/covers`,
      token,
      payload: { fileName: 'c.png', fileSize: 2 ** 53 },
    });
    expect(cover.statusCode).toBe(400);
    expect(cover.json().details[0].path).toBe('/body/fileSize');
    const date = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/tracks/${track.id}`,
      token,
      payload: { releaseDate: '0000-01-01' },
    });
    expect(date.statusCode).toBe(400);
    expect(date.json().details[0].path).toBe('/body/releaseDate');
  });

  it('answers JSON nested deeper than any request needs with 400, signed in or not', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const login = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: deep,
    });
    expect(login.statusCode).toBe(400);
    expect(login.json().details[0].message).toBe('is nested too deeply');
    const team = await ctx.newTeam();
    const patch = await ctx.request({
      method: 'PATCH',
      url: '/api/v1/user/preferences',
      token: team.owner.token,
      headers: { 'content-type': 'application/json' },
      payload: `{"settings":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().details[0]).toMatchObject({ message: 'is nested too deeply' });
  });

  it('answers instants JavaScript or the database cannot hold (leap second, year 10000) with 400', async () => {
    const team = await ctx.newTeam();
    for (const expiresAt of ['2030-06-30T23:59:60Z', '9999-12-31T23:59:59-14:00']) {
      const res = await ctx.request({
        method: 'POST',
        url: `/api/v1/teams/${team.id}/api-keys`,
        token: team.owner.token,
        payload: { name: 'k', scopes: [], expiresAt },
      });
      expect(res.statusCode, expiresAt).toBe(400);
      expect(res.json().details[0].path).toBe('/body/expiresAt');
    }
  });

  it('refuses forged cursors whose values the database cannot take, with 400', async () => {
    const owner = await ctx.newUser();
    await ctx.newTeam(owner);
    await ctx.newTeam(owner);
    const first = await ctx.request({ method: 'GET', url: '/api/v1/teams/?limit=1', token: owner.token });
    const fingerprint = String(first.json().nextCursor).split('.')[1];
    for (const value of [2 ** 31, -1, 1.5]) {
      const forged = `${Buffer.from(JSON.stringify(value)).toString('base64url')}.${fingerprint}`;
      const res = await ctx.request({
        method: 'GET',
        url: `/api/v1/teams/?limit=1&cursor=${forged}`,
        token: owner.token,
      });
      expect(res.statusCode, String(value)).toBe(400);
      expect(res.json().details[0].path).toBe('/query/cursor');
    }
  });

  it('answers a malformed URL in the contract shape: 401 without a token, else 400 bad_url', async () => {
    const anonymous = await ctx.request({ method: 'GET', url: '/api/v1/tracks/%FF' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).toBe('{"error":"Unauthorized"}');
    const team = await ctx.newTeam();
    const res = await ctx.request({ method: 'GET', url: '/api/v1/tracks/%FF', token: team.owner.token });
    expect(res.statusCode).toBe(400);
    for (const answer of [anonymous, res]) expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json()).toEqual({
      error: 'A part of the URL is not valid percent-encoded UTF-8',
      code: 'bad_url',
    });
  });

  it('refuses a body sent to an endpoint that takes none, instead of ignoring it', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const token = team.owner.token;
    const res = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/tracks/${track.id}`,
      token,
      payload: { mode: 'hard' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { path: '/body', message: 'must be empty: this endpoint takes no body' },
    ]);
    expect((await ctx.request({ method: 'GET', url: `/api/v1/tracks/${track.id}`, token })).statusCode).toBe(
      200,
    );
    const empty = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/tracks/${track.id}`,
      token,
      payload: {},
    });
    expect(empty.statusCode).toBe(204);
  });
});

describe('OpenAPI document', () => {
  it('lists every registered route with operation id, security and schemas', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const routes = ctx.app.printRoutes({ commonPrefix: false });
    expect(routes).toContain('/api/v1/health');
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, Record<string, unknown>>>,
    ).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThan(5);
    const ids = new Set<string>();
    for (const { path, method, op } of operations) {
      expect(op.operationId, `${method} ${path}`).toEqual(expect.any(String));
      expect(ids.has(op.operationId as string)).toBe(false);
      ids.add(op.operationId as string);
      expect(op.security, `${method} ${path}`).toBeDefined();
      const responses = op.responses as Record<string, unknown>;
      expect(
        Object.keys(responses).some((code) => code.startsWith('2')),
        `${method} ${path}`,
      ).toBe(true);
      expect(responses['400']).toBeDefined();
    }
  });

  it('contains every route the app registered', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const documented = new Set(
      Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    expect(ctx.app.routeTable.length).toBeGreaterThan(5);
    for (const route of ctx.app.routeTable) {
      expect(documented.has(`${route.method} ${route.path}`), route.path).toBe(true);
    }
  });

  it('serves the reference page and its assets without a token', async () => {
    const page = await ctx.request({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
    const js = await ctx.request({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(js.statusCode).toBe(200);
  });
});
