import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type TeamRole, teamMembers, tracks, trackTeams, trackVersions } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { MANAGERS } from '../../shared/tenancy.ts';

export type TrackRow = typeof tracks.$inferSelect;
export type VersionRow = typeof trackVersions.$inferSelect;

/** A track the caller may see, and what the caller is there. */
export type TrackAccess = {
  track: TrackRow;
  /** The caller's role in the owning team (null for a key or for a member of a sharing team only). */
  ownerRole: TeamRole | null;
  /** Whether the caller manages (owner or admin) a team that holds the track. */
  manages: boolean;
};

/**
 * The tenancy guard of the tracks area: a track is visible to members of every team that holds it
 * (its own and those it is shared with) and to keys of those teams; anything else is 404.
 */
export async function requireTrack(
  db: Db,
  principal: Principal,
  trackId: number,
  options: { deleted?: boolean } = {},
): Promise<TrackAccess> {
  const [track] = await db
    .select()
    .from(tracks)
    .where(and(eq(tracks.id, trackId), options.deleted ? undefined : isNull(tracks.deletedAt)))
    .limit(1);
  if (!track) throw errors.notFound('track');
  if (principal.type === 'key') {
    const [held] = await db
      .select({ teamId: trackTeams.teamId })
      .from(trackTeams)
      .where(and(eq(trackTeams.trackId, trackId), eq(trackTeams.teamId, principal.teamId)))
      .limit(1);
    if (!held) throw errors.notFound('track');
    return { track, ownerRole: null, manages: false };
  }
  const roles = await db
    .select({ teamId: trackTeams.teamId, role: teamMembers.role })
    .from(trackTeams)
    .innerJoin(
      teamMembers,
      and(eq(teamMembers.teamId, trackTeams.teamId), eq(teamMembers.userId, principal.userId)),
    )
    .where(eq(trackTeams.trackId, trackId));
  if (roles.length === 0) throw errors.notFound('track');
  return {
    track,
    ownerRole: roles.find((r) => r.teamId === track.teamId)?.role ?? null,
    manages: roles.some((r) => MANAGERS.includes(r.role)),
  };
}

/** A version of a track the caller may see; a version of another track is 404. */
export async function requireVersion(
  db: Db,
  principal: Principal,
  trackId: number,
  versionId: number,
): Promise<TrackAccess & { version: VersionRow }> {
  const access = await requireTrack(db, principal, trackId);
  const [version] = await db
    .select()
    .from(trackVersions)
    .where(and(eq(trackVersions.id, versionId), eq(trackVersions.trackId, trackId)))
    .limit(1);
  if (!version) throw errors.notFound('version');
  return { ...access, version };
}

/** Writes that change what the owning team holds (delete, status, board order) need its membership. */
export function requireOwnerTeamMember(access: TrackAccess): void {
  if (access.ownerRole === null)
    throw errors.forbidden('Only members of the team that owns the track can do this');
}
