import { auth } from '../../plugins/auth.ts';

/** Auth classes of the interviews area: session-only (S), except the public reads (N: any valid token). */
export const session = { config: { auth: auth.session } } as const;
export const anyToken = { config: { auth: auth.anyToken } } as const;
