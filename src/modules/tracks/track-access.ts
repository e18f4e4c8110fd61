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
  /** Whether the caller acts for the owning team: one of its members, or one of its keys. */
  ownerTeam: boolean;
  /**
   * Whether the caller manages the track: an owner or admin of the owning team, or a key of that team (keys
   * are issued by its owners and admins). Roles in a team the track is shared with never count.
   */
  manages: boolean;
};

/**
 * What a change of a track needs of the caller:
 * - `comment`: any team that holds the track (reading, commenting, replying, reacting, the caller's own
 *   comments);
 * - `owner`: the owning team (its members, its keys with the route's scope): every other change or deletion;
 * - `manage`: owners and admins of the owning team, or its keys (sharing and unsharing).
 */
export type TrackChange = 'comment' | 'owner' | 'manage';

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
    const ownerTeam = principal.teamId === track.teamId;
    return { track, ownerRole: null, ownerTeam, manages: ownerTeam };
  }
  const roles = await rolesOfUser(db, { trackId, userId: principal.userId });
  if (roles.length === 0) throw errors.notFound('track');
  const ownerRole = roles.find((r) => r.teamId === track.teamId)?.role ?? null;
  return {
    track,
    ownerRole,
    ownerTeam: ownerRole !== null,
    manages: ownerRole !== null && MANAGERS.includes(ownerRole),
  };
}

/**
 * The write guard of the tracks area: the track as `requireTrack` finds it (404 unseen), then 403 when the
 * caller's place does not allow the change. A team the track is shared with reads and comments only, so a
 * share never lets anyone change or delete what the owning team holds.
 */
export async function requireTrackForChange(
  db: Db,
  principal: Principal,
  trackId: number,
  change: TrackChange,
  options: { deleted?: boolean } = {},
): Promise<TrackAccess> {
  const access = await requireTrack(db, principal, trackId, options);
  requireChange(access, change);
  return access;
}

/** `requireVersion` for a change: the version of a track the caller may change as `change` says. */
export async function requireVersionForChange(
  db: Db,
  principal: Principal,
  trackId: number,
  versionId: number,
  change: TrackChange,
): Promise<TrackAccess & { version: VersionRow }> {
  const access = await requireVersion(db, principal, trackId, versionId);
  requireChange(access, change);
  return access;
}

function requireChange(access: TrackAccess, change: TrackChange): void {
  if (change === 'comment') return;
  if (!access.ownerTeam)
    throw errors.forbidden(
      'Only the team that owns the track can change it; a team it is shared with reads and comments',
    );
  if (change === 'manage' && !access.manages)
    throw errors.forbidden('Only owners and admins of the team that owns the track can do this');
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
  const first = await requireTrackForChange(db, principal, trackIds[0]!, 'owner');
  return first.track.teamId;
}
