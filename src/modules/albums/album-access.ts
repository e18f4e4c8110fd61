import { and, eq, sql } from 'drizzle-orm';
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
