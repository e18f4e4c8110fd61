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
    problems.push(...duplicateIds(kind, list), ...badRequirements(kind, list));
    const kept = new Set(list.map((s) => s.id));
    const removed = current[kind].map((s) => s.id).filter((id) => !kept.has(id));
    for (const [from, to] of Object.entries(moves)) {
      const path = `/body/patch/moves/${kind}/${from}`;
      if (!removed.includes(from))
        problems.push({ path, message: `is not a status this patch removes from ${kind}` });
      else if (!kept.has(to))
        problems.push({ path, message: `moves to ${to}, which is not in the new ${kind} list` });
    }
    next[kind] = list.map(stored);
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

/** A status as the configuration keeps it: no absent fields written as keys. */
function stored({ id, name, color, requires }: StatusDefinition): StatusDefinition {
  return {
    id,
    name,
    ...(color === undefined ? {} : { color }),
    ...(requires === undefined ? {} : { requires }),
  };
}

/** Approval requirements the board cannot honour: on the first status, or auto-advance on albums. */
function badRequirements(kind: StatusKind, list: StatusDefinition[]): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  list.forEach((status, i) => {
    const path = `/body/patch/${kind}/${i}/requires`;
    if (!status.requires) return;
    if (i === 0)
      problems.push({ path, message: `is not allowed on the first status, where new ${kind} start` });
    if (kind === 'albums' && status.requires.autoAdvance)
      problems.push({ path: `${path}/autoAdvance`, message: 'applies to track statuses only' });
  });
  return problems;
}
