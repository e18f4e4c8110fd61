import { auth } from '../../plugins/auth.ts';

/** How the descriptions of the area say who may call: session only, any member of the team. */
export const MEMBERS =
  'Session only (an API key gets 403 `session_required`); any member of the team, whatever their role; a ' +
  'team the caller is not in gets 404.';
export const TOUR_MEMBERS =
  "Session only (an API key gets 403 `session_required`); any member of the tour's team; a tour of a team " +
  'the caller is not in is 404, as a missing one.';

/** The tours area is session-only (S): a team API key gets 403 session_required. */
export const session = { config: { auth: auth.session } } as const;
/** A list read confirms the session in its team check (`deferSessionCheck`), one round trip fewer. */
export const sessionRead = { config: { auth: auth.session, deferSessionCheck: true } } as const;
export const sessionExtension = { config: { auth: auth.session, extension: true } } as const;
