import type { Db } from '../../../db/client.ts';
import {
  type StatusDefinition,
  type StatusRequirement,
  TEAM_ROLES,
  type TeamRole,
} from '../../../db/schema/index.ts';
import { errors } from '../../../shared/errors.ts';
import { type Approver, approversOfAlbumTracks, approversOfTracks } from './approvals.repository.ts';

/** The roles whose approvals count for a requirement. */
export const rolesOf = (requires: StatusRequirement): TeamRole[] => requires.roles ?? [...TEAM_ROLES];

/** How many of `approvers` count for `requires` (one each, with a listed role). */
export function approvalsCounted(approvers: Approver[], requires: StatusRequirement): number {
  const roles = rolesOf(requires);
  return approvers.filter((a) => roles.includes(a.role)).length;
}

/** What an item lacks to enter a status: the status, what it asks, what it has, and the tracks short of it. */
export type Shortfall = {
  status: string;
  required: number;
  have: number;
  roles: TeamRole[];
  missing: number[];
};

/** The shortfall of tracks (each with its approvers) against a status, or undefined when all of them meet it. */
export function shortfallOf(
  status: StatusDefinition,
  tracks: { trackId: number; approvers: Approver[] }[],
): Shortfall | undefined {
  const requires = status.requires;
  if (!requires) return undefined;
  const counts = tracks.map((t) => ({ trackId: t.trackId, have: approvalsCounted(t.approvers, requires) }));
  const missing = counts.filter((c) => c.have < requires.approvals);
  if (missing.length === 0) return undefined;
  return {
    status: status.id,
    required: requires.approvals,
    have: Math.min(...missing.map((c) => c.have)),
    roles: rolesOf(requires),
    missing: missing.map((c) => c.trackId),
  };
}

/** Refuses (409 approval_required) moving the tracks into `status` unless each has the approvals it asks. */
export async function requireTrackApprovals(
  db: Db,
  status: StatusDefinition,
  trackIds: number[],
  path: string,
): Promise<void> {
  if (!status.requires || trackIds.length === 0) return;
  const approvers = await approversOfTracks(db, trackIds);
  const shortfall = shortfallOf(
    status,
    trackIds.map((trackId) => ({ trackId, approvers: approvers.get(trackId) ?? [] })),
  );
  if (shortfall) throw errors.approvalRequired(path, describe('track', shortfall), shortfall);
}

/**
 * Refuses (409 approval_required) moving the albums into `status` unless every live track on them has the
 * approvals it asks (an album without tracks has nothing to approve).
 */
export async function requireAlbumApprovals(
  db: Db,
  status: StatusDefinition,
  albumIds: number[],
  path: string,
): Promise<void> {
  if (!status.requires || albumIds.length === 0) return;
  const byAlbum = await approversOfAlbumTracks(db, albumIds);
  const shortfall = shortfallOf(status, [...byAlbum.values()].flat());
  if (shortfall) throw errors.approvalRequired(path, describe('album', shortfall), shortfall);
}

function describe(kind: 'track' | 'album', s: Shortfall): string {
  const who =
    s.roles.length === TEAM_ROLES.length ? 'members' : `people with the role ${s.roles.join(' or ')}`;
  const need = `The status ${s.status} needs ${s.required} approval${s.required > 1 ? 's' : ''} by ${who} of the current version`;
  if (kind === 'track') return `${need}; the track has ${s.have}`;
  return `${need} of every track on the album; ${s.missing.length === 1 ? 'track' : 'tracks'} ${s.missing.join(', ')} ${s.missing.length === 1 ? 'lacks' : 'lack'} them`;
}
