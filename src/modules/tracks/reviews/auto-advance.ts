import type { Db } from '../../../db/client.ts';
import type { StatusDefinition } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { approvalsCounted } from '../approvals/approval-gate.ts';
import { approversOfTracks, lockTrackStatus } from '../approvals/approvals.repository.ts';
import { moveTrackToStatus } from '../tracks.repository.ts';

export type StatusChangeRecorder = (
  tx: Db,
  principal: Principal,
  payload: { trackId: number; teamId: number; from: string; to: string; reason: 'approvals' },
) => Promise<unknown>;

/**
 * After `deciderId` approved: when the status right after the track's current one (in `board`, the owning
 * team's locked track board) advances on approvals and the decider's approval is among those that now meet
 * it, the track moves there, recorded as the decider's `track.status_changed` with reason `approvals`.
 * Answers whether it moved.
 */
export async function advanceOnApproval(
  tx: Db,
  input: { principal: Principal; deciderId: string; trackId: number; board: StatusDefinition[]; now: Date },
  recordStatusChange: StatusChangeRecorder,
): Promise<boolean> {
  const track = await lockTrackStatus(tx, input.trackId);
  if (!track) return false;
  const at = input.board.findIndex((s) => s.id === track.statusId);
  const next = at >= 0 ? input.board[at + 1] : undefined;
  const requires = next?.requires;
  if (!next || !requires?.autoAdvance) return false;
  const approvers = (await approversOfTracks(tx, [track.id])).get(track.id) ?? [];
  const counted = approvers.filter((a) => approvalsCounted([a], requires) === 1);
  // Only a decision that counts completes the requirement: one on an older version or by a role not listed
  // leaves the track where it is.
  if (counted.length < requires.approvals || !counted.some((a) => a.userId === input.deciderId)) return false;
  await moveTrackToStatus(tx, track, next.id, input.now);
  await recordStatusChange(tx, input.principal, {
    trackId: track.id,
    teamId: track.teamId,
    from: track.statusId,
    to: next.id,
    reason: 'approvals',
  });
  return true;
}
