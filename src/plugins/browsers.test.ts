import { describe, expect, it } from 'vitest';
import { configProblems } from '../../test/helpers/config-problems.ts';
import { useTestContext } from '../../test/helpers/context.ts';

const APP = 'https://app.example.test';
const preflight = (origin: string, url = '/api/v1/tracks', method = 'POST') => ({
  method: 'OPTIONS' as const,
  url,
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'authorization, content-type, idempotency-key',
  },
});

describe('CORS settings', () => {
  it('list every origin that is not one, and refuse * with credentials', () => {
    expect(configProblems({ CORS_ORIGINS: `${APP}, https://b.example.test:8443` })).toEqual([]);
    expect(configProblems({ CORS_ORIGINS: '*' })).toEqual([]);
    const problems = configProblems({
      CORS_ORIGINS: 'https://a.example.test/, app.example.test,ftp://x.example.test',
    });
    expect(problems).toHaveLength(3);
    for (const problem of problems) expect(problem).toMatch(/^CORS_ORIGINS: .* is not an origin/);
    expect(configProblems({ CORS_ORIGINS: '*', CORS_CREDENTIALS: 'true' })).toEqual([
      'CORS_ORIGINS: * cannot be combined with CORS_CREDENTIALS=true; list the origins',
    ]);
  });
});

describe('without CORS_ORIGINS', () => {
  const ctx = useTestContext();

  it('answers no CORS headers, and a preflight is an unauthenticated request like any other', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/health', headers: { origin: APP } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await ctx.request(preflight(APP));
    expect(pre.statusCode).toBe(401);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('with CORS_ORIGINS', () => {
  const ctx = useTestContext({ env: { CORS_ORIGINS: `${APP},https://other.example.test` } });

  it('answers a preflight from a listed origin without a token', async () => {
    const res = await ctx.request(preflight(APP));
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-methods']).toContain('PATCH');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type, idempotency-key');
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toMatch(/Origin/);
    // Also for a path that only exists with a parameter, and for the event stream.
    const stream = await ctx.request(preflight(APP, '/api/v1/chat/events', 'GET'));
    expect(stream.statusCode).toBe(204);
  });

  it('lets a page send the Guest-Token of a review link', async () => {
    const res = await ctx.request({
      method: 'OPTIONS',
      url: '/api/v1/shared/some-token/comments',
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, guest-token',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(String(res.headers['access-control-allow-headers']).split(', ')).toContain('guest-token');
  });

  it('gives an origin that is not listed no CORS headers', async () => {
    const res = await ctx.request(preflight('https://evil.example.test'));
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await ctx.request({
      method: 'GET',
      url: '/api/v1/health',
      headers: { origin: 'https://evil.example.test' },
    });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('puts the CORS headers on answers, 401 included, and exposes the headers clients read', async () => {
    const denied = await ctx.request({ method: 'GET', url: '/api/v1/tracks', headers: { origin: APP } });
    expect(denied.statusCode).toBe(401);
    expect(denied.json()).toEqual({ error: 'Unauthorized' });
    expect(denied.headers['access-control-allow-origin']).toBe(APP);
    const exposed = String(denied.headers['access-control-expose-headers']).split(', ');
    for (const name of [
      'RateLimit',
      'RateLimit-Policy',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'Idempotent-Replayed',
      'ETag',
      'X-Request-Id',
      'Location',
      'Upload-Offset',
      'Upload-Length',
      'Tus-Resumable',
    ])
      expect(exposed).toContain(name);
    const user = await ctx.newUser();
    const ok = await ctx.request({
      method: 'GET',
      url: '/api/v1/auth/me',
      token: user.token,
      headers: { origin: APP },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
  });
});

describe('with CORS_ORIGINS and credentials', () => {
  const ctx = useTestContext({ env: { CORS_ORIGINS: APP, CORS_CREDENTIALS: 'true' } });

  it('allows credentials for the listed origin only', async () => {
    const res = await ctx.request(preflight(APP));
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });
});

describe('security headers', () => {
  const ctx = useTestContext();

  it('are on every answer: API, errors, unknown routes and paths the router cannot place', async () => {
    const user = await ctx.newUser();
    const unplaced = await ctx.request({ method: 'GET', url: '/api/v1/tracks/%E0%A4%A', token: user.token });
    expect(unplaced.json()).toMatchObject({ code: 'bad_url' });
    for (const res of [
      await ctx.request({ method: 'GET', url: '/api/v1/health' }),
      await ctx.request({ method: 'GET', url: '/api/v1/tracks' }),
      await ctx.request({ method: 'GET', url: '/api/v1/nothing-here', token: user.token }),
      unplaced,
      await ctx.request({ method: 'GET', url: `/api/v1/tracks/${'x'.repeat(300)}` }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'",
      );
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('let the reference page at /docs load its own scripts and styles', async () => {
    const res = await ctx.request({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/style-src 'self'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('security headers behind HTTPS', () => {
  const ctx = useTestContext({ env: { PUBLIC_URL: 'https://api.example.test' } });

  it('add HSTS', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/health' });
    expect(res.headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
  });
});
