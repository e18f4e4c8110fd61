import { auth } from '../../plugins/auth.ts';

/** How the descriptions of the area say who may call the members' routes. */
export const MEMBERS =
  'Session only (an API key gets 403 `session_required`); any member of the team, whatever their role; a ' +
  'team the caller is not in gets 404.';
export const INTERVIEW_MEMBERS =
  "Session only (an API key gets 403 `session_required`); any member of the interview's team; an interview " +
  'of a team the caller is not in is 404, as a missing one.';
/** The public reads: any valid token, of any team, without a scope. */
export const ANY_TOKEN = 'Any valid token (a session or an API key of any team; no scope needed).';

/** Auth classes of the interviews area: session-only (S), except the public reads (N: any valid token). */
export const session = { config: { auth: auth.session } } as const;
export const anyToken = { config: { auth: auth.anyToken } } as const;
