import type { Db } from '../../../db/client.ts';
import type { StatusDefinition } from '../../../db/schema/index.ts';
import { shortfallOf } from './approval-gate.ts';
import { approversOfAlbumTracks, approversOfTracks, statusConfigsOf } from './approvals.repository.ts';
import type { BlockedBy } from './blocked-by.schemas.ts';

export type { BlockedBy } from './blocked-by.schemas.ts';

/** The status after `statusId` in `board`, when it asks for approvals. */
function gatedNext(board: StatusDefinition[], statusId: string): StatusDefinition | undefined {
  const at = board.findIndex((s) => s.id === statusId);
  const next = at >= 0 ? board[at + 1] : undefined;
  return next?.requires ? next : undefined;
}

const block = (s: { status: string; required: number; have: number }): BlockedBy => ({
  status: s.status,
  required: s.required,
  have: s.have,
});

/**
 * Each track card with `blockedBy` (the next status of the owning team's board), in two statements at most:
 * the boards, then the approvals of the tracks whose next status asks for them.
 */
export async function withTrackBlocks<T extends { id: number; teamId: number; statusId: string }>(
  db: Db,
  items: T[],
): Promise<(T & { blockedBy: BlockedBy })[]> {
  const boards = await statusConfigsOf(db, [...new Set(items.map((t) => t.teamId))]);
  const next = new Map<number, StatusDefinition>();
  for (const t of items) {
    const gated = gatedNext(boards.get(t.teamId)?.tracks ?? [], t.statusId);
    if (gated) next.set(t.id, gated);
  }
  const approvers = await approversOfTracks(db, [...next.keys()]);
  return items.map((t) => {
    const status = next.get(t.id);
    const shortfall =
      status && shortfallOf(status, [{ trackId: t.id, approvers: approvers.get(t.id) ?? [] }]);
    return Object.assign(t, { blockedBy: shortfall ? block(shortfall) : null });
  });
}

/** Each album card of one team's board with `blockedBy` (every track on it must meet the next status). */
export async function withAlbumBlocks<T extends { id: number; statusId: string }>(
  db: Db,
  board: StatusDefinition[],
  items: T[],
): Promise<(T & { blockedBy: BlockedBy })[]> {
  const next = new Map<number, StatusDefinition>();
  for (const a of items) {
    const gated = gatedNext(board, a.statusId);
    if (gated) next.set(a.id, gated);
  }
  const tracksOf = await approversOfAlbumTracks(db, [...next.keys()]);
  return items.map((a) => {
    const status = next.get(a.id);
    const shortfall = status && shortfallOf(status, tracksOf.get(a.id) ?? []);
    return Object.assign(a, { blockedBy: shortfall ? block(shortfall) : null });
  });
}
