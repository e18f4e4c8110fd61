import type { BlobStore } from '../../storage/blob-store.ts';

/** A dependency the service needs to answer: ok, failing, or not configured here. */
export type CheckState = 'ok' | 'failed' | 'not_configured';

export type Readiness = {
  ready: boolean;
  checks: { database: CheckState; redis: CheckState; storage: CheckState };
};

export type ReadinessSources = {
  pingDatabase: () => Promise<boolean>;
  /** Undefined when no Redis is configured. */
  pingRedis: (timeoutMs: number) => Promise<boolean | undefined>;
  /** The S3 store when files go to S3; local disk needs no check. */
  s3: BlobStore | undefined;
};

/** Longest wait for any one dependency: a probe must answer well within the orchestrator's timeout. */
export const CHECK_TIMEOUT_MS = 2000;
// Any key will do: a missing object answers null, a store that cannot be reached or refuses us throws.
const PROBE_KEY = 'readyz/probe';

async function within(check: Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([check.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Checks every dependency at once: the database always, Redis and the S3 store when configured. */
export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  const [database, redis, storage] = await Promise.all([
    within(sources.pingDatabase(), CHECK_TIMEOUT_MS),
    sources.pingRedis(CHECK_TIMEOUT_MS).catch(() => false),
    sources.s3
      ? within(
          sources.s3.head(PROBE_KEY).then(() => true),
          CHECK_TIMEOUT_MS,
        )
      : undefined,
  ]);
  const state = (value: boolean | undefined): CheckState =>
    value === undefined ? 'not_configured' : value ? 'ok' : 'failed';
  const checks = { database: state(database), redis: state(redis), storage: state(storage) };
  return { ready: Object.values(checks).every((c) => c !== 'failed'), checks };
}
