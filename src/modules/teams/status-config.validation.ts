import type { StatusConfig, StatusDefinition } from '../../db/schema/index.ts';
import { type ErrorDetail, errors } from '../../shared/errors.ts';
import type { StatusKind } from './status-usage.ts';

export type StatusConfigPatch = {
  tracks?: StatusDefinition[];
  albums?: StatusDefinition[];
  moves?: { tracks?: Record<string, string>; albums?: Record<string, string> };
};

/** What replacing one list does: the statuses it removes, and where some of them move. */
export type ListChange = { kind: StatusKind; removed: string[]; moves: [from: string, to: string][] };

const KINDS: readonly StatusKind[] = ['tracks', 'albums'];

/**
 * Checks a patch against the current configuration and returns the next one with the changes to apply;
 * 400 validation_failed naming every problem (whether a removed status is in use is asked later).
 */
export function planStatusChange(
  current: StatusConfig,
  patch: StatusConfigPatch,
): { next: StatusConfig; changes: ListChange[] } {
  const problems: ErrorDetail[] = [];
  if (!patch.tracks && !patch.albums)
    problems.push({ path: '/body/patch', message: 'must hold tracks or albums' });
  const next: StatusConfig = { tracks: current.tracks, albums: current.albums };
  const changes: ListChange[] = [];
  for (const kind of KINDS) {
    const list = patch[kind];
    const moves = patch.moves?.[kind] ?? {};
    if (!list) {
      if (patch.moves?.[kind])
        problems.push({
          path: `/body/patch/moves/${kind}`,
          message: `needs a new ${kind} list in patch.${kind}`,
        });
      continue;
    }
    problems.push(...duplicateIds(kind, list));
    const kept = new Set(list.map((s) => s.id));
    const removed = current[kind].map((s) => s.id).filter((id) => !kept.has(id));
    for (const [from, to] of Object.entries(moves)) {
      const path = `/body/patch/moves/${kind}/${from}`;
      if (!removed.includes(from))
        problems.push({ path, message: `is not a status this patch removes from ${kind}` });
      else if (!kept.has(to))
        problems.push({ path, message: `moves to ${to}, which is not in the new ${kind} list` });
    }
    next[kind] = list.map(({ id, name, color }) =>
      color === undefined ? { id, name } : { id, name, color },
    );
    changes.push({ kind, removed, moves: Object.entries(moves) });
  }
  if (problems.length > 0) throw errors.validation(problems);
  return { next, changes };
}

function duplicateIds(kind: StatusKind, list: StatusDefinition[]): ErrorDetail[] {
  const firstAt = new Map<string, number>();
  const problems: ErrorDetail[] = [];
  list.forEach((status, i) => {
    const first = firstAt.get(status.id);
    if (first === undefined) firstAt.set(status.id, i);
    else
      problems.push({ path: `/body/patch/${kind}/${i}/id`, message: `repeats the id of ${kind}/${first}` });
  });
  return problems;
}
