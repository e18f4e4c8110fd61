/** What a share lets a team do, as the OpenAPI descriptions of the tracks area state it. */
export const SHARING_RULE =
  'A team the track is shared with reads it and comments on it (posts comments and replies, reacts, edits ' +
  'and deletes its own comments); every other change or deletion belongs to the owning team: its members ' +
  'by role, its keys by scope.';

/** The description of a change only the owning team makes. */
export const OWNER_ONLY =
  'Members (and keys) of the team that owns the track only: anyone who sees the track through a team it ' +
  'is shared with gets 403 forbidden.';

/** The description of the comment changes beyond one's own comments. */
export const MODERATION =
  "Other people's comments are moderated by the owning team only (its owners and admins, its keys): a " +
  'role in a team the track is shared with, even owner or admin, moderates nothing there (403).';

/** Who reads what a track holds. */
export const READERS =
  'Any member of a team that holds the track (its own team or one it is shared with), or an API key of such ' +
  'a team (reads need no scope); a track the caller cannot see, or a soft-deleted one, is 404.';

/** Who changes what the owning team holds, on routes that take a key with `tracks:write`. */
export const WRITERS =
  'A session of any member of the team that owns the track (every role), or an API key of that team with ' +
  '`tracks:write` (403 insufficient_scope without it).';

/** Who changes what the owning team holds, on routes that take a session only. */
export const SESSION_WRITERS =
  'Session only (an API key gets 403 session_required): any member of the team that owns the track (every role).';

/** Who comments: every team that holds the track. */
export const COMMENTERS =
  'A session of any member of a team that holds the track (its own team or one it is shared with), or an API ' +
  'key of the owning team with `tracks:write` (a key of a team the track is shared with only reads: 403).';
