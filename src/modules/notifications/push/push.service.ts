import type { Db, DbTransaction } from '../../../db/client.ts';
import type { PushPlatform } from '../../../db/schema/index.ts';
import type { JobContext, JobQueue } from '../../../jobs/job-queue.ts';
import type { Clock } from '../../../shared/clock.ts';
import { ApnsClient } from './apns.ts';
import { FcmClient } from './fcm.ts';
import type { PushSettings } from './push.config.ts';
import { deleteDeadToken, hasDeviceOn, recordSettled, tokensOf } from './push.repository.ts';
import type { PushContent, PushProvider, SendOutcome } from './push.types.ts';

export const PUSH_JOB = 'notifications.push';

/** A message for all of a user's devices; `data` reaches the app as string pairs. */
export type PushMessage = { userId: string; title: string; body: string; data?: Record<string, string> };

/**
 * The job's payload; `done` lists the hashes of the tokens earlier attempts settled (accepted, or refused for
 * a reason another attempt would not change).
 */
export type PushJob = {
  userId: string;
  title: string;
  body: string;
  data: Record<string, string>;
  done?: string[];
};

const MAX_TITLE = 200;
const MAX_BODY = 1000;
const MAX_DATA_ENTRIES = 20;
const MAX_DATA_KEY = 64;
const MAX_DATA_VALUE = 512;
/** Keys the providers reserve for themselves (FCM refuses them; `aps` is APNs's own dictionary). */
const RESERVED_KEY = /^(?:(?:aps|from|notification|message_type|collapse_key)$|google|gcm)/i;
/** Devices sent to at once. */
const PARALLEL_SENDS = 10;

/** Keeps a message inside what both providers accept (4 KB payloads): long text is cut, reserved keys dropped. */
export function boundedContent(message: PushMessage): PushContent {
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(message.data ?? {})) {
    if (Object.keys(data).length >= MAX_DATA_ENTRIES) break;
    if (key === '' || key.length > MAX_DATA_KEY || RESERVED_KEY.test(key) || typeof value !== 'string')
      continue;
    data[key] = cut(value, MAX_DATA_VALUE);
  }
  return { title: cut(message.title, MAX_TITLE), body: cut(message.body, MAX_BODY), data };
}

/** One job attempt that left some devices to a later one. */
class PushRetry extends Error {
  override name = 'PushRetry';
}

/**
 * Push delivery: a job per message, written in the caller's transaction, that sends to each of the user's
 * devices through its platform's provider (`ios` APNs; `android`, `web` FCM), removes tokens a provider
 * declared dead, and retries devices that failed for now without sending again to those that accepted.
 */
export class PushService {
  private readonly providers: Partial<Record<PushPlatform, PushProvider>>;
  private readonly clients: PushProvider[];
  /** Platforms with a provider configured. */
  readonly platforms: readonly PushPlatform[];

  constructor(private readonly deps: { db: Db; clock: Clock; jobs: JobQueue; settings: PushSettings }) {
    const { settings, clock } = deps;
    const fcm = settings.fcm ? new FcmClient(settings.fcm, clock) : undefined;
    const apns = settings.apns ? new ApnsClient(settings.apns, clock) : undefined;
    this.providers = { ios: apns, android: fcm, web: fcm };
    this.clients = [fcm, apns].filter((c) => c !== undefined);
    this.platforms = (['ios', 'android', 'web'] as const).filter((p) => this.providers[p]);
    // Defined even when nothing is configured, so jobs left from a configured run are drained.
    deps.jobs.define<PushJob>(PUSH_JOB, (payload, context) => this.run(payload, context), {
      maxAttempts: 6,
      backoffMs: 30_000,
    });
  }

  /** Whether any provider is configured. */
  get configured(): boolean {
    return this.clients.length > 0;
  }

  /**
   * Queues the message in `tx` when a provider is configured and the user has a device it serves; answers
   * whether it did.
   */
  async enqueue(tx: Db | DbTransaction, message: PushMessage): Promise<boolean> {
    if (!this.configured || !(await hasDeviceOn(tx, message.userId, this.platforms))) return false;
    const content = boundedContent(message);
    await this.deps.jobs.enqueue<PushJob>(tx, PUSH_JOB, { userId: message.userId, ...content });
    return true;
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close()));
  }

  /** The job: one attempt at every device not yet reached. */
  private async run(job: PushJob, { jobId, attempt, signal }: JobContext): Promise<void> {
    const { db } = this.deps;
    const log = this.deps.jobs.logger;
    const done = new Set(job.done ?? []);
    const due = (await tokensOf(db, job.userId)).filter(
      (device) => !done.has(device.tokenHash) && this.providers[device.platform],
    );
    const content: PushContent = { title: job.title, body: job.body, data: job.data ?? {} };
    const retry: string[] = [];
    let settled = 0;
    for (let i = 0; i < due.length && !signal.aborted; i += PARALLEL_SENDS) {
      const batch = due.slice(i, i + PARALLEL_SENDS);
      const outcomes = await Promise.all(
        batch.map((device) =>
          this.providers[device.platform]!.send(device.token, content, signal).catch(
            (error: unknown): SendOutcome => ({ kind: 'retry', reason: String(error) }),
          ),
        ),
      );
      for (const [j, outcome] of outcomes.entries()) {
        const device = batch[j]!;
        const where = { jobId, userId: job.userId, platform: device.platform };
        if (outcome.kind === 'sent') {
          done.add(device.tokenHash);
          settled++;
        } else if (outcome.kind === 'dead') {
          const removed = await deleteDeadToken(db, job.userId, device.tokenHash);
          log.info({ ...where, reason: outcome.reason, removed }, 'push token is no longer valid');
        } else if (outcome.kind === 'retry') {
          retry.push(outcome.reason);
        } else {
          done.add(device.tokenHash);
          settled++;
          log.error({ ...where, reason: outcome.reason }, 'push could not be delivered to a device');
        }
      }
    }
    if (retry.length === 0 && !signal.aborted) return;
    if (settled > 0) await recordSettled(db, { id: jobId, attempt }, [...done]);
    if (signal.aborted) throw signal.reason;
    throw new PushRetry(
      `${retry.length} of ${due.length} devices failed for now (attempt ${attempt}): ${retry[0]}`,
    );
  }
}
