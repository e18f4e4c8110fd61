import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { App } from '../src/app-types.ts';
import { loadConfig } from '../src/config.ts';
import { type Database, openPostgres } from '../src/db/client.ts';
import { TEST_SECRETS } from './helpers/context.ts';
import { cloneDatabase } from './helpers/database.ts';
import { TcpProxy } from './helpers/tcp-proxy.ts';

// A database outage only exists for a database behind a network; PGlite runs inside the process.
const url = process.env.DATABASE_URL;

describe.runIf(url)('database outage', () => {
  let proxy: TcpProxy;
  let database: Database;
  let app: App;
  let closeClone: () => Promise<void>;

  beforeAll(async () => {
    const clone = await cloneDatabase();
    closeClone = () => clone.close();
    const target = new URL(clone.url!);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    database = openPostgres(target.toString(), 2);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: target.toString() });
    app = await buildApp({ config, database, secrets: TEST_SECRETS, logger: false });
  });

  afterAll(async () => {
    await app.close();
    await database.close();
    await proxy.cut();
    await closeClone();
  });

  it('answers 503 unavailable while the database is away and recovers without a restart', async () => {
    const signup = (email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/signup',
        payload: { email, password: 'long-enough-pw' },
      });
    expect((await signup('before@example.test')).statusCode).toBe(201);

    await proxy.cut();
    const health = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'degraded', database: 'unavailable' });
    const write = await signup('during@example.test');
    expect(write.statusCode).toBe(503);
    expect(write.json()).toEqual({ error: expect.any(String), code: 'unavailable' });

    await proxy.start();
    let recovered = 0;
    for (let attempt = 0; attempt < 50 && recovered !== 200; attempt++) {
      recovered = (await app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(recovered).toBe(200);
    expect((await signup('after@example.test')).statusCode).toBe(201);
  });
});
