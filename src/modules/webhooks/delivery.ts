import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import type { GuardedAgent } from './address-guard.ts';
import {
  type AttemptOutcome,
  type DeliverPayload,
  type DueAttempt,
  disableEndpoint,
  dueAttempts,
  endRun,
  leaseEndpoint,
  markFailing,
  queueRun,
  type SendingEndpoint,
  scheduleNextAttempt,
  settleAttempt,
  settleSuccess,
} from './deliveries.repository.ts';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt } from './retry-schedule.ts';
import type { SecretBox } from './secret-box.ts';
import { send } from './sender.ts';
import { deliveryHeaders } from './signing.ts';

/** Attempts of one endpoint sent at once by a run (a receiver never has more of ours in flight). */
export const ATTEMPTS_PER_BATCH = 16;
/** Batches a run sends before it queues the endpoint's next run, so other endpoints get their turn. */
const BATCHES_PER_RUN = 8;

export type DeliveryDeps = {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  /** The guarded HTTP agent (see `AddressGuard`). */
  agent: GuardedAgent;
  timeoutMs: number;
};

/** How long a batch may take: every send ends by its timeout, the writes after it are quick. */
const leaseMs = (deps: DeliveryDeps) => Math.ceil(deps.timeoutMs * 1.5);

/**
 * One run of an endpoint's deliveries: under the endpoint's sending lease (one run per endpoint across
 * processes), sends its due attempts in the order they fell due, up to ATTEMPTS_PER_BATCH at a time, recording
 * each outcome as it comes (at least once: a run that dies leaves its unrecorded attempts pending, and the next
 * run, once the lease has run out, sends them again). Queues the endpoint's next run before it ends.
 */
export async function deliver(
  deps: DeliveryDeps,
  payload: DeliverPayload,
  signal: AbortSignal,
): Promise<void> {
  const { endpointId } = payload;
  let held: Date | undefined;
  try {
    for (let batch = 0; batch < BATCHES_PER_RUN && !signal.aborted; batch++) {
      const now = deps.clock.now();
      const until = new Date(now.getTime() + leaseMs(deps));
      const endpoint = await leaseEndpoint(deps.db, { endpointId, now, until, held });
      if (!endpoint) return;
      if ('heldUntil' in endpoint) {
        // Another run is sending (or died sending): this one comes back when its lease runs out.
        if (held === undefined) await queueRun(deps.db, endpointId, endpoint.heldUntil, now);
        held = undefined;
        return;
      }
      held = until;
      const attempts = await dueAttempts(deps.db, endpointId, now, ATTEMPTS_PER_BATCH);
      await Promise.all(attempts.map((attempt) => sendAttempt(deps, endpoint, attempt, signal)));
      if (attempts.length < ATTEMPTS_PER_BATCH) break;
    }
  } finally {
    if (held) await endRun(deps.db, { endpointId, held, now: deps.clock.now() });
  }
}

/** Sends one attempt (unless its endpoint is disabled or its secret unreadable) and records how it went. */
async function sendAttempt(
  deps: DeliveryDeps,
  endpoint: SendingEndpoint,
  attempt: DueAttempt,
  signal: AbortSignal,
): Promise<void> {
  if (!endpoint.enabled) {
    await settle(deps, endpoint, attempt, failure('not sent: the endpoint is disabled'));
    return;
  }
  const now = deps.clock.now();
  const secrets = signingSecrets(deps.secrets, endpoint, now);
  if (!secrets) {
    await settle(
      deps,
      endpoint,
      attempt,
      failure('not sent: the signing secret cannot be read (service secret changed?)'),
    );
    return;
  }
  const body = JSON.stringify({
    type: attempt.eventType,
    timestamp: attempt.occurredAt.toISOString(),
    data: attempt.payload,
  });
  const headers = {
    ...deliveryHeaders(secrets, attempt.eventId, Math.floor(now.getTime() / 1000), body),
    'user-agent': 'team-music-workspace-webhooks',
  };
  const result = await send(deps.agent, { url: endpoint.url, body, headers }, deps.timeoutMs, signal);
  await settle(deps, endpoint, attempt, {
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
function signingSecrets(box: SecretBox, endpoint: SendingEndpoint, now: Date): string[] | null {
  try {
    const secrets = [box.open(endpoint.secret)];
    const expires = endpoint.previousSecretExpiresAt;
    if (endpoint.previousSecret && expires && expires > now) secrets.push(box.open(endpoint.previousSecret));
    return secrets;
  } catch {
    return null;
  }
}

/**
 * Records an attempt's outcome once: a success ends the endpoint's run of failures; a failure starts or extends
 * it, disables the endpoint once it has lasted `DISABLE_AFTER_FAILING_MS`, and otherwise schedules the next
 * attempt (its row, and the endpoint's run then) on the retry schedule. An attempt not sent because its
 * endpoint is disabled just fails.
 */
async function settle(
  deps: DeliveryDeps,
  endpoint: SendingEndpoint,
  attempt: DueAttempt,
  outcome: AttemptOutcome,
): Promise<void> {
  const now = deps.clock.now();
  if (outcome.status === 'succeeded') {
    const { status: _, ...recorded } = outcome;
    await settleSuccess(deps.db, attempt.id, recorded, now);
    return;
  }
  await deps.db.transaction(async (tx) => {
    // Another run may have recorded an outcome first: that one stands.
    if (!(await settleAttempt(tx, attempt.id, outcome, now))) return;
    if (!endpoint.enabled) return;
    const failing = await markFailing(tx, attempt.endpointId, now);
    if (!failing?.enabled) return;
    if (now.getTime() - failing.failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
      await disableEndpoint(tx, attempt.endpointId, now);
      return;
    }
    const retryAt = nextAttemptAt(attempt.attempt, now);
    if (!retryAt) return;
    if (await scheduleNextAttempt(tx, attempt, retryAt, now)) {
      await queueRun(tx, attempt.endpointId, retryAt, now);
    }
  });
}
