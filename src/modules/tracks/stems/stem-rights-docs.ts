/** Who changes a stem's download rights, as the OpenAPI descriptions state it. */
export const STEM_MANAGERS =
  'Session only (an API key gets 403 session_required): owners and admins of the team that owns the track; ' +
  'a plain member, and anyone who sees the track through a team it is shared with, gets 403 forbidden.';

/** What a caller who may not download a restricted stem sees of it. */
export const STEM_AUDIO_RULE =
  'A restricted stem’s audio is for the owning team’s owners and those its `downloadableBy` names (roles of ' +
  'the owning team, its API keys as `api_key`, members and keys of teams the track is shared with as ' +
  '`shared_team`); anyone else sees the stem with `downloadable: false` and `file.url`, `file.downloadUrl` ' +
  'null.';

/** How long a stem's audio URLs work, and what restricting a stem does to URLs handed out before. */
export const STEM_URL_LIFETIME =
  'Audio URLs are signed and short-lived: they expire after the server’s download URL lifetime ' +
  '(DOWNLOAD_URL_TTL_SECONDS, 300 seconds unless configured otherwise). Every fetch checks the stem’s rights ' +
  'as they are then: once a restriction leaves a caller out, the URLs handed to them before answer 404.';
