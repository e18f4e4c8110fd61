import type { Principal } from '../plugins/auth.ts';

/** Who made a change: a user, or (when an API key acted) the key; neither for the service or an operator. */
export type Actor = { actorUserId: string | null; actorKeyId: number | null };

export const NO_ACTOR: Actor = { actorUserId: null, actorKeyId: null };

/** The actor of a principal: the user of a session, or the key. */
export function actorOf(principal: Principal): Actor {
  return principal.type === 'session'
    ? { actorUserId: principal.userId, actorKeyId: null }
    : { actorUserId: null, actorKeyId: principal.keyId };
}
