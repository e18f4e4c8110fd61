import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { App } from '../../src/app-types.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import type { Scope } from '../../src/plugins/auth.ts';
import type { Clock } from '../../src/shared/clock.ts';
import { cloneDatabase } from './database.ts';
import { makeFactories, type TestTeam, type TestTrack, type TestUser } from './factories.ts';
import { TEST_PASSWORD_HASHING } from './server-process.ts';

/** A clock tests can move. */
export class TestClock implements Clock {
  private current: number;
  constructor(start = Date.now()) {
    this.current = start;
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export const TEST_SECRETS = {
  tokenSecret: randomBytes(32).toString('hex'),
  urlSigningSecret: randomBytes(32).toString('hex'),
};

export type TestContextOptions = {
  /** Settings, or a function giving them when the context is built (after earlier `beforeAll`s ran). */
  env?: Record<string, string> | (() => Record<string, string>);
  clock?: Clock;
  /** A database to build on (closed with the context) instead of a private clone of the template. */
  database?: Database;
};

export type TestContext = {
  app: App;
  database: Database;
  config: Config;
  clock: Clock;
  /** `app.inject` with a bearer token when `token` is given. */
  request(options: InjectOptions & { token?: string | undefined }): Promise<LightMyRequestResponse>;
} & ReturnType<typeof makeFactories>;

export type { TestTeam, TestTrack, TestUser };

/** Builds an app over a private clone of the template database for this test file. */
export async function createTestContext(
  options: TestContextOptions = {},
): Promise<TestContext & { close(): Promise<void> }> {
  const database = options.database ?? (await cloneDatabase());
  // A data directory of the context's own: its blobs and mail, which another file's cleanup jobs (run with
  // a clock years ahead) would otherwise sweep as strays of theirs.
  mkdirSync('.tmp', { recursive: true });
  const dataDir = mkdtempSync(join('.tmp', 'context-'));
  const config = loadConfig({
    // The files about sign-in set the production cost of password hashing themselves.
    ...TEST_PASSWORD_HASHING,
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ...(typeof options.env === 'function' ? options.env() : options.env),
  });
  const clock = options.clock ?? { now: () => new Date() };
  const app = await buildApp({ config, database, clock, secrets: TEST_SECRETS, logger: false });
  await app.ready();
  const request: TestContext['request'] = ({ token, headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const base = { app, database, config, clock, request };
  return {
    ...base,
    ...makeFactories(base),
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers one test context for the file: built before its tests, closed after them. */
export function useTestContext(options: TestContextOptions = {}): TestContext {
  let ctx: (TestContext & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    ctx = await createTestContext(options);
  });
  afterAll(async () => {
    await ctx?.close();
  });
  return new Proxy({} as TestContext, {
    get: (_target, key) => {
      if (!ctx) throw new Error('The test context is only available inside tests and hooks');
      return ctx[key as keyof TestContext];
    },
  });
}

export type { Scope };
