import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { albums, teamMembers } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';

export type AlbumRow = typeof albums.$inferSelect;

const albumOfMember = preparedQuery(
  'album_of_member',
  (db, p: Placeholders<{ albumId: number; userId: string }>) =>
    db
      .select()
      .from(albums)
      .where(
        and(
          eq(albums.id, p.albumId),
          sql`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = "albums"."team_id" and ${teamMembers.userId} = ${p.userId})`,
        ),
      )
      .limit(1),
);

const albumOfTeam = preparedQuery(
  'album_of_team',
  (db, p: Placeholders<{ albumId: number; teamId: number }>) =>
    db
      .select()
      .from(albums)
      .where(and(eq(albums.id, p.albumId), eq(albums.teamId, p.teamId)))
      .limit(1),
);

/**
 * The tenancy guard of the albums area: an album is visible to the members of its team and to that team's
 * keys; anything else (missing, another team's) is 404.
 */
export async function requireAlbum(db: Db, principal: Principal, albumId: number): Promise<AlbumRow> {
  const [album] =
    principal.type === 'key'
      ? await albumOfTeam(db, { albumId, teamId: principal.teamId })
      : await albumOfMember(db, { albumId, userId: principal.userId });
  if (!album) throw errors.notFound('album');
  return album;
}

/**
 * The team of the first of these albums the user can see: the board a reorder works on. Ids that are not
 * on that board (missing, deleted, another team's) are then refused by the permutation check (400);
 * when the user sees none of them the answer is 404.
 */
export async function boardTeamOf(db: Db, userId: string, albumIds: number[]): Promise<number> {
  const [row] = await db
    .select({ teamId: albums.teamId })
    .from(albums)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, albums.teamId), eq(teamMembers.userId, userId)))
    .where(inArray(albums.id, albumIds))
    .orderBy(sql`array_position(${sql.param(albumIds)}::int[], ${albums.id})`)
    .limit(1);
  if (!row) throw errors.notFound('album');
  return row.teamId;
}
