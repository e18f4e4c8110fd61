import { auth } from '../../plugins/auth.ts';

/** Every chat route is session-only (S): a team API key gets 403 session_required. */
export const session = { config: { auth: auth.session } } as const;
export const sessionExtension = { config: { auth: auth.session, extension: true } } as const;

/** How every chat operation begins its description. */
export const SESSION_ONLY = 'Session token only (an API key gets 403 `session_required`).';
/** Who sees a thread; everyone else gets 404. */
export const THREAD_READERS =
  'For anyone who sees the thread: members of its teams for a team thread, its chosen members (still in one ' +
  'of its teams) otherwise; anyone else gets 404, as for a thread that does not exist.';
/** Where the events an operation emits go. */
export const STREAM = 'the event stream (GET /api/v1/chat/events)';
