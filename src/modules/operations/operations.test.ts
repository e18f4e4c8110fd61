import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, useTestContext } from '../../../test/helpers/context.ts';
import { closedPort } from '../../../test/helpers/ports.ts';
import { jobs } from '../../db/schema/index.ts';
import { S3Store } from '../../storage/s3-store.ts';
import {
  type S3TestServer,
  startS3TestServer,
  useBucketPathWithoutSlash,
} from '../../storage/s3-test-server.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample line of the exposition text, or undefined when there is no such line. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').pop());
  }
  return undefined;
}

describe('probes', () => {
  const ctx = useTestContext();

  it('livez answers ok to anyone', async () => {
    const res = await ctx.request({ method: 'GET', url: '/livez' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('readyz checks the database, and says what is not configured', async () => {
    const res = await ctx.request({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', redis: 'not_configured', storage: 'not_configured' },
      failed: [],
    });
  });

  it('are in the OpenAPI document, anonymous', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.paths['/livez'].get.operationId).toBe('health.live');
    expect(doc.paths['/readyz'].get.security).toEqual([]);
    expect(Object.keys(doc.paths['/readyz'].get.responses)).toEqual(expect.arrayContaining(['200', '503']));
  });
});

describe('readyz with Redis down', () => {
  const env: Record<string, string> = {};
  beforeAll(async () => {
    env.REDIS_URL = `redis://127.0.0.1:${await closedPort()}`;
  });
  const ctx = useTestContext({ env });

  it('answers 503 naming redis', async () => {
    const res = await ctx.request({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'unavailable',
      checks: { redis: 'failed' },
      failed: ['redis'],
    });
  });
});

describe('readyz with the S3 store', () => {
  let s3: S3TestServer;
  let ctx: TestContext & { close(): Promise<void> };
  beforeAll(async () => {
    s3 = await startS3TestServer();
    ctx = await createTestContext({
      env: {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: s3.bucket,
        S3_REGION: s3.region,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    const store = ctx.app.services.files.store;
    if (store instanceof S3Store) useBucketPathWithoutSlash(store.client);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('is ready while the store answers, and 503 naming storage once it does not', async () => {
    const up = await ctx.request({ method: 'GET', url: '/readyz' });
    expect(up.json()).toMatchObject({ status: 'ok', checks: { storage: 'ok' } });
    await s3.stop();
    const down = await ctx.request({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ checks: { database: 'ok', storage: 'failed' }, failed: ['storage'] });
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  const ctx = useTestContext();

  it('is 404 to everyone', async () => {
    const user = await ctx.newUser();
    for (const token of [undefined, user.token, METRICS_TOKEN]) {
      const res = await ctx.request({ method: 'GET', url: '/metrics', token });
      expect(res.statusCode).toBe(404);
    }
    expect(ctx.app.metrics).toBeUndefined();
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  const ctx = useTestContext({ env: { METRICS_TOKEN } });

  it('is 404 without the token or with another one', async () => {
    const user = await ctx.newUser();
    for (const token of [undefined, user.token, `${METRICS_TOKEN}x`]) {
      const res = await ctx.request({ method: 'GET', url: '/metrics', token });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('tmw_');
    }
  });

  it('counts requests by operation, status and caller, never by raw URL', async () => {
    const user = await ctx.newUser();
    const team = await ctx.newTeam(user);
    const key = await ctx.newApiKey(team);
    await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: user.token });
    await ctx.request({ method: 'GET', url: `/api/v1/teams/${team.id}`, token: key });
    await ctx.request({ method: 'GET', url: '/api/v1/tracks' });
    const res = await ctx.request({ method: 'GET', url: '/metrics', token: METRICS_TOKEN });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(
      sample(text, 'tmw_http_requests_total', { operation: 'auth.me', status: '200', caller: 'session' }),
    ).toBe(1);
    expect(sample(text, 'tmw_http_requests_total', { operation: 'teams.get', caller: 'key' })).toBe(1);
    expect(
      sample(text, 'tmw_http_requests_total', {
        operation: 'tracks.list',
        status: '401',
        caller: 'anonymous',
      }),
    ).toBe(1);
    expect(
      sample(text, 'tmw_http_request_duration_seconds_count', { operation: 'auth.me', caller: 'session' }),
    ).toBe(1);
    expect(text).not.toContain(`/api/v1/teams/${team.id}`);
    // Node's own metrics, the event-loop delay among them.
    expect(sample(text, 'tmw_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'tmw_event_streams_open')).toBe(0);
  });

  it("reports this process's PostgreSQL pool (none on the embedded database)", async () => {
    const text = (await ctx.request({ method: 'GET', url: '/metrics', token: METRICS_TOKEN })).body;
    const pool = ctx.database.pool;
    if (!pool) {
      expect(text).not.toContain('tmw_db_pool');
      return;
    }
    expect(sample(text, 'tmw_db_pool_size')).toBe(pool.size);
    const states = text
      .split('\n')
      .filter((line) => line.startsWith('tmw_db_pool_connections{'))
      .map((line) => Number(line.split(' ').pop()));
    // The connections that served this file's requests, the scrape's own left out.
    expect(states.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(states.reduce((a, b) => a + b, 0)).toBeLessThan(pool.size);
  });

  it('reports the job queue by type and the webhook backlog, read at scrape time', async () => {
    const now = Date.now();
    await ctx.database.db.insert(jobs).values([
      { type: 'test.metrics', payload: {}, runAt: new Date(now - 90_000) },
      { type: 'test.metrics', payload: {}, runAt: new Date(now - 30_000) },
      { type: 'test.metrics', payload: {}, runAt: new Date(now + 600_000) },
    ]);
    const text = (await ctx.request({ method: 'GET', url: '/metrics', token: METRICS_TOKEN })).body;
    expect(sample(text, 'tmw_jobs', { type: 'test.metrics', status: 'queued' })).toBe(3);
    const oldest = sample(text, 'tmw_jobs_oldest_due_age_seconds', { type: 'test.metrics' })!;
    expect(oldest).toBeGreaterThanOrEqual(89);
    expect(oldest).toBeLessThan(200);
    expect(sample(text, 'tmw_webhook_deliveries_pending')).toBe(0);
    expect(sample(text, 'tmw_webhook_delivery_failures_last_hour')).toBe(0);
    expect(sample(text, 'tmw_metrics_database_errors_total')).toBe(0);
  });
});
