import { auth } from '../../plugins/auth.ts';

/** How the descriptions of the area say who may call: every route takes a session token only. */
export const SESSION_ONLY = 'Session only (an API key gets 403 `session_required`).';

/** Auth classes of the organisations area: every route is session-only (S); extensions are flagged. */
export const session = { config: { auth: auth.session } } as const;
export const sessionExtension = { config: { auth: auth.session, extension: true } } as const;

/** A session-only extension whose capability is the `token` in its path (kept out of the request log). */
export const sessionTokenExtension = {
  config: { auth: auth.session, extension: true, pathToken: 'token' },
} as const;
