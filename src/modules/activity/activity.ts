import type { Db } from '../../db/client.ts';
import { activityEntries } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { notifyFromActivity } from '../notifications/notify.ts';

export type Actor = { actorUserId: string | null; actorKeyId: number | null };

/** The actor columns of a principal: the user of a session, or the key. */
export function actorOf(principal: Principal): Actor {
  return principal.type === 'session'
    ? { actorUserId: principal.userId, actorKeyId: null }
    : { actorUserId: null, actorKeyId: principal.keyId };
}

export type ActivityInput = Actor & {
  teamId: number;
  action: string;
  subjectType: string;
  subjectId: string | number;
  data?: Record<string, unknown>;
};

/**
 * Records one activity entry, and the notifications it makes; call it with the transaction of the write it
 * describes.
 */
export async function recordActivity(tx: Db, entry: ActivityInput): Promise<void> {
  const fact = {
    teamId: entry.teamId,
    actorUserId: entry.actorUserId,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: String(entry.subjectId),
    data: entry.data ?? {},
  };
  await tx.insert(activityEntries).values({ ...fact, actorKeyId: entry.actorKeyId });
  await notifyFromActivity(tx, fact);
}

/** Records one activity entry done by `principal` (a session's user or a key). */
export function recordActivityBy(
  tx: Db,
  principal: Principal,
  entry: Omit<ActivityInput, keyof Actor>,
): Promise<void> {
  return recordActivity(tx, { ...actorOf(principal), ...entry });
}

/**
 * Records entries about one kind of subject, for services whose writes all describe the same kind:
 * `record(tx, principal, teamId, action, subjectId, data)`.
 */
export function activityRecorder(subjectType: string) {
  return (
    tx: Db,
    principal: Principal,
    teamId: number,
    action: string,
    subjectId: number | string,
    data?: Record<string, unknown>,
  ) => recordActivityBy(tx, principal, { teamId, action, subjectType, subjectId, ...(data ? { data } : {}) });
}
