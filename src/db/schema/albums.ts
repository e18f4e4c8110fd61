import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { boardCard, createdBy, releaseFields, stamp, timestamps } from './columns.ts';
import { users } from './identity.ts';
import { tracks } from './tracks.ts';

export const ALBUM_TYPES = ['album', 'ep', 'single', 'compilation'] as const;
export type AlbumType = (typeof ALBUM_TYPES)[number];

/** Albums (and EPs, singles, compilations) on the owning team's album status board. */
export const albums = pgTable(
  'albums',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    ...boardCard(),
    ...releaseFields(),
    type: text().$type<AlbumType>().notNull().default('album'),
    upc: text(),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    index('albums_team_status_idx').on(t.teamId, t.statusId, t.position),
    index('albums_team_updated_idx').on(t.teamId, t.updatedAt, t.id),
  ],
);

/** The tracks of an album, in order. */
export const albumTracks = pgTable(
  'album_tracks',
  {
    albumId: integer()
      .notNull()
      .references(() => albums.id, { onDelete: 'cascade' }),
    trackId: integer()
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    addedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    addedAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.albumId, t.trackId] }),
    index('album_tracks_order_idx').on(t.albumId, t.position),
    index('album_tracks_track_idx').on(t.trackId),
  ],
);
