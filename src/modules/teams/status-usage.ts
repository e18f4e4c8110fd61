import type { Db } from '../../db/client.ts';
import type { StatusDefinition } from '../../db/schema/index.ts';

export type StatusKind = 'tracks' | 'albums';

/**
 * What an area that stores items with a team status (tracks, albums) plugs in, so the status
 * configuration never drops a status its items still use. Both functions get the transaction of the change.
 */
export type StatusUsageProvider = {
  /** Which of `statusIds` the team's items of `kind` use. */
  inUse(db: Db, teamId: number, kind: StatusKind, statusIds: string[]): Promise<string[]>;
  /**
   * Moves the team's items of `kind` from one status to another; `target` is that status in the new list
   * (its approval requirement applies to the items moved).
   */
  move(
    db: Db,
    teamId: number,
    kind: StatusKind,
    from: string,
    to: string,
    target: StatusDefinition,
  ): Promise<void>;
};

/** The registered providers; none means no status is in use. */
export const statusUsageProviders: StatusUsageProvider[] = [];

/** Registers a provider; returns the function that removes it again. */
export function registerStatusUsageProvider(provider: StatusUsageProvider): () => void {
  statusUsageProviders.push(provider);
  return () => {
    const at = statusUsageProviders.indexOf(provider);
    if (at >= 0) statusUsageProviders.splice(at, 1);
  };
}

/** The statuses among `statusIds` that any provider reports in use, in the order given. */
export async function statusesInUse(
  db: Db,
  teamId: number,
  kind: StatusKind,
  statusIds: string[],
): Promise<string[]> {
  if (statusIds.length === 0) return [];
  const used = new Set<string>();
  for (const provider of statusUsageProviders) {
    for (const id of await provider.inUse(db, teamId, kind, statusIds)) used.add(id);
  }
  return statusIds.filter((id) => used.has(id));
}

export async function moveStatus(
  db: Db,
  teamId: number,
  kind: StatusKind,
  from: string,
  target: StatusDefinition,
): Promise<void> {
  for (const provider of statusUsageProviders) await provider.move(db, teamId, kind, from, target.id, target);
}
