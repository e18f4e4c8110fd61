import { auth } from '../../plugins/auth.ts';

/** Auth classes of the financials area (B): reads with any token of the team, writes with `financials:write`. */
export const read = { config: { auth: auth.keyOrSession() } } as const;
export const write = { config: { auth: auth.keyOrSession('financials:write') } } as const;
export const readExtension = { config: { auth: auth.keyOrSession(), extension: true } } as const;
export const writeExtension = {
  config: { auth: auth.keyOrSession('financials:write'), extension: true },
} as const;
