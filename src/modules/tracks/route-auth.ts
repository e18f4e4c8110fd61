import { auth } from '../../plugins/auth.ts';

/** Auth classes of the tracks area: reads with any token of the team, writes with `tracks:write`. */
export const read = { config: { auth: auth.keyOrSession() } } as const;
/** A read whose first statement also confirms the caller (see `deferSessionCheck`). */
export const hotRead = { config: { auth: auth.keyOrSession(), deferSessionCheck: true } } as const;
export const write = { config: { auth: auth.keyOrSession('tracks:write') } } as const;
export const session = { config: { auth: auth.session } } as const;
