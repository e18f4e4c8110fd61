import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { plans, teams } from '../../src/db/schema/index.ts';
import type { BlobStore } from '../../src/storage/blob-store.ts';
import { S3Store } from '../../src/storage/s3-store.ts';
import {
  type S3TestServer,
  startS3TestServer,
  useBucketPathWithoutSlash,
} from '../../src/storage/s3-test-server.ts';
import { createTestContext, TestClock, type TestContext, type TestTeam } from './context.ts';

export type StorageDriver = 'local' | 's3';

export type StorageTestContext = TestContext & {
  clock: TestClock;
  driver: StorageDriver;
  store: BlobStore;
  /** Runs every due background job. */
  runJobs(): Promise<number>;
  /** A plain HTTP request to a signed URL, as any client would send it (over a real socket). */
  fetchUrl(
    url: string,
    init?: { method?: string; headers?: Record<string, string>; body?: Uint8Array },
  ): Promise<{
    status: number;
    headers: Headers;
    body: Buffer;
  }>;
  /** Every key in the store (pending uploads included). */
  listKeys(prefix?: string): Promise<string[]>;
  /** Moves a team to a plan with this storage quota. */
  setQuota(team: TestTeam, bytes: number): Promise<void>;
};

/**
 * A test context whose files go to a fresh local directory, or to a real S3-protocol server started for the
 * file. The app listens on 127.0.0.1 so signed URLs can be fetched like a client would.
 */
export function useStorageTestContext(
  driver: StorageDriver,
  options: { env?: Record<string, string> } = {},
): StorageTestContext {
  const clock = new TestClock();
  let ctx: (TestContext & { close(): Promise<void> }) | undefined;
  let server: S3TestServer | undefined;
  let dataDir: string | undefined;
  let origin = '';
  let publicOrigin = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tmw-files-'));
    const env: Record<string, string> = { DATA_DIR: dataDir, ...options.env };
    if (driver === 's3') {
      server = await startS3TestServer();
      Object.assign(env, {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: server.endpoint,
        S3_BUCKET: server.bucket,
        S3_REGION: server.region,
        S3_ACCESS_KEY_ID: server.accessKeyId,
        S3_SECRET_ACCESS_KEY: server.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      });
    }
    ctx = await createTestContext({ env, clock });
    const store = ctx.app.services.files.store;
    if (store instanceof S3Store) useBucketPathWithoutSlash(store.client);
    origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    publicOrigin = `http://${ctx.config.host}:${ctx.config.port}`;
  });

  afterAll(async () => {
    await ctx?.close();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const extra = {
    clock,
    driver,
    get store() {
      return ctx!.app.services.files.store;
    },
    runJobs: () => ctx!.app.services.jobs.runDue(),
    async fetchUrl(
      url: string,
      init: { method?: string; headers?: Record<string, string>; body?: Uint8Array } = {},
    ) {
      // Local signed URLs name the configured public origin; the test server listens elsewhere.
      const target = url.startsWith(publicOrigin) ? origin + url.slice(publicOrigin.length) : url;
      // Like a browser, fetch computes Content-Length from the body itself.
      const { 'content-length': _length, ...headers } = init.headers ?? {};
      const res = await fetch(target, {
        method: init.method ?? 'GET',
        headers,
        ...(init.body ? { body: init.body } : {}),
      });
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    },
    async listKeys(prefix = '') {
      const keys: string[] = [];
      for await (const entry of ctx!.app.services.files.store.list(prefix)) keys.push(entry.key);
      return keys;
    },
    async setQuota(team: TestTeam, bytes: number) {
      const db = ctx!.app.deps.database.db;
      const id = `test-quota-${bytes}`;
      await db
        .insert(plans)
        .values({
          id,
          name: `Quota ${bytes}`,
          apiRequestsPerMinute: 1000,
          storageQuotaBytes: bytes,
          maxMembers: 50,
        })
        .onConflictDoNothing();
      await db.update(teams).set({ planId: id }).where(eq(teams.id, team.id));
    },
  };

  return new Proxy({} as StorageTestContext, {
    get: (_target, key) => {
      if (key in extra) return extra[key as keyof typeof extra];
      if (!ctx) throw new Error('The test context is only available inside tests and hooks');
      return ctx[key as keyof TestContext];
    },
  });
}
