import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../../shared/schemas.ts';
import { AlbumFields } from './albums.schemas.ts';

const ofAlbum = { albumId: Id, teamId: Type.Integer({ minimum: 1, description: 'The team of the album' }) };
const StatusId = Type.String({ description: "An album status id of the team's configuration" });
const ALBUM_FIELDS = [
  'title',
  'artist',
  'type',
  'releaseDate',
  'label',
  'upc',
  'genre',
  'language',
  'tags',
  'notes',
] as const;

/** The webhook events of albums: payload schemas, descriptions and examples. */
export const ALBUM_EVENTS = {
  'album.created': {
    description: 'An album was created in the first album status of its team.',
    schema: Type.Object({ ...ofAlbum, title: Type.String(), statusId: StatusId }),
    example: { albumId: 12, teamId: 7, title: 'Night Drives', statusId: 'idea' },
  },
  'album.updated': {
    description: "An album's fields changed; `changes` holds each field given, with its new value.",
    schema: Type.Object({
      ...ofAlbum,
      // Its own name and examples: a pick would otherwise carry the album's examples into the document.
      changes: Type.Partial(Type.Pick(AlbumFields, ALBUM_FIELDS), {
        title: 'AlbumChanges',
        description: 'The fields that were set, as GET /albums/{id} now shows them',
        examples: [{ title: 'Night Drives (Deluxe)', upc: '012345678905' }],
      }),
    }),
    example: { albumId: 12, teamId: 7, changes: { title: 'Night Drives (Deluxe)', upc: '012345678905' } },
  },
  'album.deleted': {
    description: 'An album was deleted with its cover; its tracks stay.',
    schema: Type.Object({ ...ofAlbum, title: Type.String() }),
    example: { albumId: 12, teamId: 7, title: 'Night Drives' },
  },
  'album.status_changed': {
    description: 'An album was moved to a status (`from` equals `to` when it was set to the status it had).',
    schema: Type.Object({ ...ofAlbum, from: StatusId, to: StatusId }),
    example: { albumId: 12, teamId: 7, from: 'idea', to: 'mastering' },
  },
  'album.tracks_added': {
    description:
      'Tracks were added at the end of an album, in this order; each is a track of the album’s team or ' +
      'one shared with it.',
    schema: Type.Object({ ...ofAlbum, trackIds: Type.Array(Id, { minItems: 1 }) }),
    example: { albumId: 12, teamId: 7, trackIds: [101, 102] },
  },
  'album.track_removed': {
    description: 'A track was taken off an album (the track itself stays).',
    schema: Type.Object({ ...ofAlbum, trackId: Id }),
    example: { albumId: 12, teamId: 7, trackId: 101 },
  },
} as const;

export type AlbumEventData<T extends keyof typeof ALBUM_EVENTS> = Static<(typeof ALBUM_EVENTS)[T]['schema']>;
