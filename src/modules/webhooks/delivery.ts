import type { Db } from '../../db/client.ts';
import { insertJob } from '../../jobs/jobs.repository.ts';
import type { Clock } from '../../shared/clock.ts';
import type { GuardedAgent } from './address-guard.ts';
import {
  type AttemptOutcome,
  type AttemptToSend,
  attemptToSend,
  disableEndpoint,
  fanOutEvent,
  markFailing,
  scheduleNextAttempt,
  settleAttempt,
  settleSuccess,
} from './deliveries.repository.ts';
import type { FanoutPayload } from './outbox.ts';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt } from './retry-schedule.ts';
import type { SecretBox } from './secret-box.ts';
import { send } from './sender.ts';
import { deliveryHeaders } from './signing.ts';

/** The job that sends one pending attempt. */
export const DELIVER_JOB = 'webhooks.deliver';
export type DeliverPayload = { deliveryId: number };

export type DeliveryDeps = {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  /** The guarded HTTP agent (see `AddressGuard`). */
  agent: GuardedAgent;
  timeoutMs: number;
};

/**
 * Turns an outbox event into a first attempt and a deliver job per endpoint that takes it, atomically. Runs
 * again harmlessly: attempts that exist are skipped with their jobs.
 */
export function fanOut({ db, clock }: DeliveryDeps, payload: FanoutPayload): Promise<number> {
  return fanOutEvent(db, {
    eventId: payload.eventId,
    endpointId: payload.endpointId,
    jobType: DELIVER_JOB,
    now: clock.now(),
  });
}

/**
 * Sends one attempt if it is still pending, then records how it went. A job that runs again after its process
 * died sends the attempt again only when no outcome was recorded (at least once, never an attempt twice
 * once settled).
 */
export async function deliver(
  deps: DeliveryDeps,
  payload: DeliverPayload,
  signal: AbortSignal,
): Promise<void> {
  const attempt = await attemptToSend(deps.db, payload.deliveryId);
  if (attempt?.status !== 'pending') return;
  if (!attempt.enabled) {
    await settle(deps, attempt, failure('not sent: the endpoint is disabled'));
    return;
  }
  const now = deps.clock.now();
  const secrets = signingSecrets(deps.secrets, attempt, now);
  if (!secrets) {
    await settle(
      deps,
      attempt,
      failure('not sent: the signing secret cannot be read (service secret changed?)'),
    );
    return;
  }
  const body = JSON.stringify(attempt.payload);
  const headers = {
    ...deliveryHeaders(secrets, attempt.eventId, Math.floor(now.getTime() / 1000), body),
    'user-agent': 'team-music-workspace-webhooks',
  };
  const result = await send(deps.agent, { url: attempt.url, body, headers }, deps.timeoutMs, signal);
  await settle(deps, attempt, {
    status: result.ok ? 'succeeded' : 'failed',
    responseStatus: result.responseStatus,
    durationMs: result.durationMs,
    error: result.error,
  });
}

const failure = (error: string): AttemptOutcome => ({
  status: 'failed',
  responseStatus: null,
  durationMs: null,
  error,
});

/** The current secret, and the previous one while its rotation window lasts; null when one cannot be opened. */
function signingSecrets(box: SecretBox, attempt: AttemptToSend, now: Date): string[] | null {
  try {
    const secrets = [box.open(attempt.secret)];
    const expires = attempt.previousSecretExpiresAt;
    if (attempt.previousSecret && expires && expires > now) secrets.push(box.open(attempt.previousSecret));
    return secrets;
  } catch {
    return null;
  }
}

/**
 * Records an attempt's outcome once: a success ends the endpoint's run of failures; a failure starts or extends
 * it, disables the endpoint once it has lasted `DISABLE_AFTER_FAILING_MS`, and otherwise schedules the next
 * attempt (row and job) on the retry schedule. An attempt not sent because its endpoint is disabled just fails.
 */
async function settle(deps: DeliveryDeps, attempt: AttemptToSend, outcome: AttemptOutcome): Promise<void> {
  const now = deps.clock.now();
  if (outcome.status === 'succeeded') {
    const { status: _, ...recorded } = outcome;
    await settleSuccess(deps.db, attempt.id, recorded, now);
    return;
  }
  await deps.db.transaction(async (tx) => {
    // Another run of the job may have recorded an outcome first: that one stands.
    if (!(await settleAttempt(tx, attempt.id, outcome, now))) return;
    if (!attempt.enabled) return;
    const endpoint = await markFailing(tx, attempt.endpointId, now);
    if (!endpoint?.enabled) return;
    if (now.getTime() - endpoint.failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
      await disableEndpoint(tx, attempt.endpointId, now);
      return;
    }
    const retryAt = nextAttemptAt(attempt.attempt, now);
    if (!retryAt) return;
    const nextId = await scheduleNextAttempt(tx, attempt, retryAt, now);
    if (nextId === undefined) return;
    const job: DeliverPayload = { deliveryId: nextId };
    await insertJob(tx, { type: DELIVER_JOB, payload: job, runAt: retryAt, dedupeKey: undefined, now });
  });
}
