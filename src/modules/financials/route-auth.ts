import { auth } from '../../plugins/auth.ts';

/**
 * Auth classes of the financials area (B): reads with any token of the team, writes with `financials:write`.
 * Reads confirm a session in their team check (`deferSessionCheck`), one round trip fewer.
 */
/** How the descriptions of the area say who may call a read or a write. */
export const WHO_READS =
  'Any member of the team (session), or an API key of the team (no scope needed); a team the caller is not ' +
  "in, or another team's key, gets 404.";
/** Who may read one entry (its team is the entry's). */
export const READS =
  "Any member of the entry's team (session), or an API key of that team (no scope needed).";
export const WHO_WRITES =
  'Any member of the team (session), or an API key of the team with the scope `financials:write` (403 ' +
  "`insufficient_scope` without it); a team the caller is not in, or another team's key, gets 404.";

export const read = { config: { auth: auth.keyOrSession(), deferSessionCheck: true } } as const;
export const write = { config: { auth: auth.keyOrSession('financials:write') } } as const;
export const readExtension = {
  config: { auth: auth.keyOrSession(), deferSessionCheck: true, extension: true },
} as const;
export const writeExtension = {
  config: { auth: auth.keyOrSession('financials:write'), extension: true },
} as const;
