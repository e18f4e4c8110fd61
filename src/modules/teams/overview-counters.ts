import type { Db } from '../../db/client.ts';
import { countLiveApiKeys, countMembers, countPendingInvites } from './teams.repository.ts';

/** One number on the team overview: `counts[name]`. */
export type TeamOverviewCounter = {
  name: string;
  count(db: Db, teamId: number, now: Date): Promise<number>;
};

/**
 * The counters the overview reports. Other areas add theirs with `registerTeamOverviewCounter`
 * (tracks, albums, storage, ...), so the overview grows without this module knowing them.
 */
export const teamOverviewCounters: TeamOverviewCounter[] = [
  { name: 'members', count: (db, teamId) => countMembers(db, teamId) },
  { name: 'pendingInvites', count: countPendingInvites },
  { name: 'apiKeys', count: countLiveApiKeys },
];

export function registerTeamOverviewCounter(counter: TeamOverviewCounter): void {
  if (teamOverviewCounters.some((c) => c.name === counter.name))
    throw new Error(`A team overview counter named ${counter.name} is already registered`);
  teamOverviewCounters.push(counter);
}

/** The counts every overview has: the built-in counters are never removed. */
export type BaseCounts = { members: number; pendingInvites: number; apiKeys: number };

/** Every registered count for one team. */
export async function countTeam(
  db: Db,
  teamId: number,
  now: Date,
): Promise<BaseCounts & Record<string, number>> {
  const values = await Promise.all(teamOverviewCounters.map((c) => c.count(db, teamId, now)));
  return Object.fromEntries(teamOverviewCounters.map((c, i) => [c.name, values[i]!])) as BaseCounts &
    Record<string, number>;
}
