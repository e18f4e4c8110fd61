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
