import { auth } from '../../plugins/auth.ts';

/** Auth classes of the organisations area: every route is session-only (S); extensions are flagged. */
export const session = { config: { auth: auth.session } } as const;
export const sessionExtension = { config: { auth: auth.session, extension: true } } as const;

/** A session-only extension whose capability is the `token` in its path (kept out of the request log). */
export const sessionTokenExtension = {
  config: { auth: auth.session, extension: true, pathToken: 'token' },
} as const;
