import { auth } from '../../plugins/auth.ts';

/** Every chat route is session-only (S): a team API key gets 403 session_required. */
export const session = { config: { auth: auth.session } } as const;
export const sessionExtension = { config: { auth: auth.session, extension: true } } as const;
