import type { Db, DbTransaction } from '../../../db/client.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { Clock } from '../../../shared/clock.ts';
import type { PushSettings } from './push.config.ts';
import { type PushMessage, PushService } from './push.service.ts';

export type { PushMessage };

/**
 * Whether this process has a push provider configured (FCM or APNs). Read it where it is used: it is set
 * when the services start.
 */
export let pushConfigured = false;

let active: PushService | undefined;

/**
 * Queues a push of the message to the user's devices, in `tx` so it commits with the change it tells of.
 * Does nothing (answers false) when no provider is configured or the user has no device one serves.
 */
export function enqueuePush(tx: Db | DbTransaction, message: PushMessage): Promise<boolean> {
  return active ? active.enqueue(tx, message) : Promise.resolve(false);
}

/**
 * The process's push delivery, defining its job on `jobs`; `enqueuePush` goes to the latest one started
 * until it is closed.
 */
export function startPush(deps: { db: Db; clock: Clock; jobs: JobQueue; settings: PushSettings }) {
  const service = new PushService(deps);
  active = service;
  pushConfigured = service.configured;
  return {
    configured: service.configured,
    enqueue: (tx: Db | DbTransaction, message: PushMessage) => service.enqueue(tx, message),
    close: async () => {
      if (active === service) {
        active = undefined;
        pushConfigured = false;
      }
      await service.close();
    },
  };
}
