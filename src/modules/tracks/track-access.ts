import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
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

const liveTrackById = preparedQuery('tracks_live_by_id', (db, p: Placeholders<{ id: number }>) =>
  db
    .select()
    .from(tracks)
    .where(and(eq(tracks.id, p.id), isNull(tracks.deletedAt)))
    .limit(1),
);
const anyTrackById = preparedQuery('tracks_any_by_id', (db, p: Placeholders<{ id: number }>) =>
  db.select().from(tracks).where(eq(tracks.id, p.id)).limit(1),
);
const heldByTeam = preparedQuery(
  'tracks_held_by_team',
  (db, p: Placeholders<{ trackId: number; teamId: number }>) =>
    db
      .select({ teamId: trackTeams.teamId })
      .from(trackTeams)
      .where(and(eq(trackTeams.trackId, p.trackId), eq(trackTeams.teamId, p.teamId)))
      .limit(1),
);
const rolesOfUser = preparedQuery(
  'tracks_roles_of_user',
  (db, p: Placeholders<{ trackId: number; userId: string }>) =>
    db
      .select({ teamId: trackTeams.teamId, role: teamMembers.role })
      .from(trackTeams)
      .innerJoin(
        teamMembers,
        and(eq(teamMembers.teamId, trackTeams.teamId), eq(teamMembers.userId, p.userId)),
      )
      .where(eq(trackTeams.trackId, p.trackId)),
);

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
  const [track] = await (options.deleted ? anyTrackById : liveTrackById)(db, { id: trackId });
  if (!track) throw errors.notFound('track');
  if (principal.type === 'key') {
    const [held] = await heldByTeam(db, { trackId, teamId: principal.teamId });
    if (!held) throw errors.notFound('track');
    // A key acts for its team: on a track another team owns and shares with it, it may only read.
    if (principal.writing && track.teamId !== principal.teamId)
      throw errors.forbidden(
        "Only keys of the team that owns the track can change it; this key's team can read it",
      );
    return { track, ownerRole: null, manages: false };
  }
  const roles = await rolesOfUser(db, { trackId, userId: principal.userId });
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

/**
 * The owning team of the first of these live tracks whose owning team the user is in: the board a reorder
 * works on. Ids not on that board are then refused by the permutation check (400). When there is no such
 * track, the first id answers as the track guard does (404 unseen, 403 seen through a sharing team only).
 */
export async function boardTeamOfTracks(db: Db, principal: Principal, trackIds: number[]): Promise<number> {
  if (principal.type === 'session') {
    const [row] = await db
      .select({ teamId: tracks.teamId })
      .from(tracks)
      .innerJoin(
        teamMembers,
        and(eq(teamMembers.teamId, tracks.teamId), eq(teamMembers.userId, principal.userId)),
      )
      .where(and(inArray(tracks.id, trackIds), isNull(tracks.deletedAt)))
      .orderBy(sql`array_position(${sql.param(trackIds)}::int[], ${tracks.id})`)
      .limit(1);
    if (row) return row.teamId;
  }
  const first = await requireTrack(db, principal, trackIds[0]!);
  requireOwnerTeamMember(first);
  return first.track.teamId;
}
