import { auth } from '../../plugins/auth.ts';

/**
 * Auth classes of the financials area (B): reads with any token of the team, writes with `financials:write`.
 * Reads confirm a session in their team check (`deferSessionCheck`), one round trip fewer.
 */
export const read = { config: { auth: auth.keyOrSession(), deferSessionCheck: true } } as const;
export const write = { config: { auth: auth.keyOrSession('financials:write') } } as const;
export const readExtension = {
  config: { auth: auth.keyOrSession(), deferSessionCheck: true, extension: true },
} as const;
export const writeExtension = {
  config: { auth: auth.keyOrSession('financials:write'), extension: true },
} as const;
