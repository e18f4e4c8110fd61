import { auth } from '../../plugins/auth.ts';

/** Auth classes of the albums area: reads with any token of the team, writes with `albums:write`. */
export const read = { config: { auth: auth.keyOrSession() } } as const;
export const session = { config: { auth: auth.session } } as const;
/** Writes beyond the specification (create, change, cover): a session or a key with `albums:write`. */
export const writeExtension = {
  config: { auth: auth.keyOrSession('albums:write'), extension: true },
} as const;
