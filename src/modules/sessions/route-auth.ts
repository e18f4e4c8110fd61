import { auth } from '../../plugins/auth.ts';

/** Auth classes of the sessions area: every route is session-only (S); the calendar feed is anonymous. */
export const session = { config: { auth: auth.session } } as const;
export const sessionExtension = { config: { auth: auth.session, extension: true } } as const;
/** A signed URL is the authority: calendar apps subscribe without a token. Its token is the `:token` parameter. */
export const signedUrlExtension = {
  config: { auth: auth.anonymous, extension: true, pathToken: 'token' },
} as const;
/** A session-only route whose path carries a signed link's `:token`. */
export const sessionLinkExtension = {
  config: { auth: auth.session, extension: true, pathToken: 'token' },
} as const;

/** How every session-only operation of the area begins its description. */
export const SESSION_ONLY = 'Session token only (an API key gets 403 `session_required`).';
/** Who may read a session and what it holds, and what the others get. */
export const READERS =
  "Members of the session's team and participants who accepted read it; anyone else gets 404, as for a " +
  'session that does not exist.';
/** Who may change a session and what it holds. */
export const MEMBERS =
  "Any member of the session's team; invited people who are not members get 404, as anyone else does.";
