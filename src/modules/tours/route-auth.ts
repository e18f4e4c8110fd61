import { auth } from '../../plugins/auth.ts';

/** The tours area is session-only (S): a team API key gets 403 session_required. */
export const session = { config: { auth: auth.session } } as const;
/** A list read confirms the session in its team check (`deferSessionCheck`), one round trip fewer. */
export const sessionRead = { config: { auth: auth.session, deferSessionCheck: true } } as const;
export const sessionExtension = { config: { auth: auth.session, extension: true } } as const;
