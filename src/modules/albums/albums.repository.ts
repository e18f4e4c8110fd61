import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { type AlbumType, albums, albumTracks, tracks, trackVersions } from '../../db/schema/index.ts';
import type { Actor } from '../../events/actor.ts';
import { createdByOf } from '../../shared/authorship.ts';
import type { AlbumRow } from './album-access.ts';
import type { AlbumSort } from './albums.schemas.ts';

// Drizzle writes every column of a single-table select unqualified, so the correlated subquery names its tables.
const trackCount = sql<number>`(select count(*)::integer from album_tracks at inner join tracks t on t.id = at.track_id where at.album_id = "albums"."id" and t.deleted_at is null)`;

const albumColumns = {
  id: albums.id,
  teamId: albums.teamId,
  statusId: albums.statusId,
  position: albums.position,
  title: albums.title,
  artist: albums.artist,
  type: albums.type,
  releaseDate: albums.releaseDate,
  label: albums.label,
  upc: albums.upc,
  genre: albums.genre,
  language: albums.language,
  tags: albums.tags,
  notes: albums.notes,
  coverFileId: albums.coverFileId,
  trackCount,
  createdBy: albums.createdBy,
  createdAt: albums.createdAt,
  updatedAt: albums.updatedAt,
};

const albumView = preparedQuery('album_view', (db, p: Placeholders<{ albumId: number }>) =>
  db.select(albumColumns).from(albums).where(eq(albums.id, p.albumId)).limit(1),
);

export type AlbumView = NonNullable<Awaited<ReturnType<typeof findAlbumView>>>;

export async function findAlbumView(db: Db, albumId: number) {
  const [row] = await albumView(db, { albumId });
  return row;
}

const duration = sql<
  number | null
>`(select ${trackVersions.durationSeconds} from ${trackVersions} where ${trackVersions.trackId} = ${tracks.id} order by ${trackVersions.isFinal} desc, ${trackVersions.id} desc limit 1)`;

const albumTrackRows = preparedQuery('album_track_rows', (db, p: Placeholders<{ albumId: number }>) =>
  db
    .select({
      id: tracks.id,
      title: tracks.title,
      artist: tracks.artist,
      statusId: tracks.statusId,
      durationSeconds: duration,
    })
    .from(albumTracks)
    .innerJoin(tracks, eq(tracks.id, albumTracks.trackId))
    .where(and(eq(albumTracks.albumId, p.albumId), isNull(tracks.deletedAt)))
    .orderBy(asc(albumTracks.position)),
);

/** The album's live tracks in album order, each with the duration of its final (else newest) version. */
export function listAlbumTracks(db: Db, albumId: number) {
  return albumTrackRows(db, { albumId });
}

export type AlbumListFilter = {
  teamId: number;
  statusId?: string | undefined;
  type?: AlbumType | undefined;
  sort: AlbumSort;
  /** For `board`: the team's album statuses in their configured order. */
  statusOrder: string[];
  after?: (string | number)[] | undefined;
  offset?: number | undefined;
  limit: number;
};

/** Where a status stands on the team's board; statuses no longer configured go last. */
function statusRank(statusOrder: string[]): SQL<number> {
  if (statusOrder.length === 0) return sql<number>`0`;
  const ids = sql.join(
    statusOrder.map((id) => sql`${id}`),
    sql`, `,
  );
  return sql<number>`coalesce(array_position(array[${ids}]::text[], ${albums.statusId}), 2147483647)`;
}

type ListWhere = Pick<AlbumListFilter, 'teamId' | 'statusId' | 'type'>;

function listFilter(f: ListWhere) {
  return and(
    eq(albums.teamId, f.teamId),
    f.statusId ? eq(albums.statusId, f.statusId) : undefined,
    f.type ? eq(albums.type, f.type) : undefined,
  );
}

/** A page of the team's albums in the requested order, after the keyset cursor or the offset. */
export async function listAlbums(db: Db, f: AlbumListFilter) {
  const rank = statusRank(f.statusOrder);
  let after: SQL | undefined;
  if (f.after && f.sort === 'updated')
    after = sql`(${albums.updatedAt}, ${albums.id}) < (${f.after[0]}::timestamptz, ${f.after[1]}::integer)`;
  if (f.after && f.sort === 'board')
    after = sql`(${rank}, ${albums.position}, ${albums.id}) > (${f.after[0]}::integer, ${f.after[1]}::integer, ${f.after[2]}::integer)`;
  const order =
    f.sort === 'updated'
      ? [desc(albums.updatedAt), desc(albums.id)]
      : [asc(rank), asc(albums.position), asc(albums.id)];
  const query = db
    .select({ ...albumColumns, rank })
    .from(albums)
    .where(and(listFilter(f), after))
    .orderBy(...order)
    .limit(f.limit);
  return f.offset ? query.offset(f.offset) : query;
}

export async function countAlbums(db: Db, f: ListWhere) {
  const [row] = await db.select({ n: count() }).from(albums).where(listFilter(f));
  return row?.n ?? 0;
}

/** Every album of the team (by title) and, per album, its live tracks in album order. */
export async function listLinks(db: Db, teamId: number) {
  const all = await db
    .select({ id: albums.id, title: albums.title, statusId: albums.statusId })
    .from(albums)
    .where(eq(albums.teamId, teamId))
    .orderBy(asc(sql`lower(${albums.title})`), asc(albums.id));
  const links = await db
    .select({ albumId: albumTracks.albumId, trackId: albumTracks.trackId })
    .from(albumTracks)
    .innerJoin(albums, eq(albums.id, albumTracks.albumId))
    .innerJoin(tracks, eq(tracks.id, albumTracks.trackId))
    .where(and(eq(albums.teamId, teamId), isNull(tracks.deletedAt)))
    .orderBy(asc(albumTracks.albumId), asc(albumTracks.position));
  return { albums: all, links };
}

export type AlbumFields = Partial<
  Pick<
    AlbumRow,
    | 'title'
    | 'artist'
    | 'type'
    | 'releaseDate'
    | 'label'
    | 'upc'
    | 'genre'
    | 'language'
    | 'tags'
    | 'notes'
    | 'statusId'
    | 'position'
    | 'coverFileId'
  >
>;

export async function insertAlbum(
  db: Db,
  values: AlbumFields & { teamId: number; title: string; statusId: string; position: number; now: Date },
  actor: Actor,
): Promise<AlbumRow> {
  const { now, ...fields } = values;
  const [row] = await db
    .insert(albums)
    .values({
      ...fields,
      ...createdByOf(actor),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

export async function updateAlbum(db: Db, albumId: number, fields: AlbumFields, now: Date): Promise<void> {
  await db
    .update(albums)
    .set({ ...fields, updatedAt: now })
    .where(eq(albums.id, albumId));
}

/** Deletes the album (its track list goes with it); answers where it stood on the board. */
export async function deleteAlbum(db: Db, albumId: number) {
  const [row] = await db
    .delete(albums)
    .where(eq(albums.id, albumId))
    .returning({ statusId: albums.statusId, position: albums.position });
  return row;
}
