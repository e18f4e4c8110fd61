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
