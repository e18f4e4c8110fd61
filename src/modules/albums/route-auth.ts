import { auth } from '../../plugins/auth.ts';

/** Auth classes of the albums area: reads with any token of the team, writes with `albums:write`. */
export const read = { config: { auth: auth.keyOrSession() } } as const;
export const session = { config: { auth: auth.session } } as const;
/** Writes beyond the specification (create, change, cover): a session or a key with `albums:write`. */
/** Who reads an album, as the OpenAPI descriptions state it. */
export const ALBUM_READERS =
  "Any member of the album's team (every role), or an API key of that team (reads need no scope); an album " +
  'of another team is 404.';

/** Who changes an album on routes that take a key with `albums:write`. */
export const ALBUM_WRITERS =
  "A session of any member of the album's team (every role), or an API key of that team with `albums:write` " +
  '(403 insufficient_scope without it); an album of another team is 404.';

/** Who changes an album on session-only routes. */
export const ALBUM_SESSION_WRITERS =
  "Session only (an API key gets 403 session_required): any member of the album's team (every role); an " +
  'album of another team is 404.';

export const writeExtension = {
  config: { auth: auth.keyOrSession('albums:write'), extension: true },
} as const;
