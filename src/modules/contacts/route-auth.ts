import { auth } from '../../plugins/auth.ts';

/**
 * Auth classes of the contacts area (B): reads with any token of the team, writes with `contacts:write`;
 * `together` is session-only (S). GET reads confirm a session in their team check (`deferSessionCheck`).
 */
/** How the descriptions of the area say who may call a read or a write. */
export const WHO_READS =
  'Any member of the team (session), or an API key of the team (no scope needed); a team the caller is not ' +
  "in, or another team's key, gets 404.";
export const WHO_WRITES =
  'Any member of the team (session), or an API key of the team with the scope `contacts:write` (403 ' +
  "`insufficient_scope` without it); a team the caller is not in, or another team's key, gets 404.";

export const read = { config: { auth: auth.keyOrSession(), deferSessionCheck: true } } as const;
export const write = { config: { auth: auth.keyOrSession('contacts:write') } } as const;
/** A POST that only reads (the platform-user lookup): any token of the team, no write scope. */
export const lookup = { config: { auth: auth.keyOrSession() } } as const;
export const sessionRead = { config: { auth: auth.session } } as const;
