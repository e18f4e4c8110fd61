import { Type } from '@sinclair/typebox';
import { Id, PageQuery, Uuid } from '../../shared/schemas.ts';

/** Most tracks one album holds. */
export const MAX_ALBUM_TRACKS = 500;

export const AlbumTrackParams = Type.Object({ id: Id, trackId: Id });

export const AddTracksBody = Type.Object(
  {
    trackIds: Type.Array(Id, {
      minItems: 1,
      maxItems: 200,
      description:
        "Tracks of the album's team or shared with it, appended in this order; each must be new to the album",
    }),
  },
  { title: 'AlbumTracksAdd', examples: [{ trackIds: [101, 104] }] },
);

export const TrackReorderBody = Type.Object(
  {
    trackOrders: Type.Array(Type.Object({ trackId: Id, order: Type.Integer({ minimum: 0 }) }), {
      minItems: 1,
      maxItems: MAX_ALBUM_TRACKS,
      description: 'Every track of the album, each once, with its new order',
    }),
  },
  {
    title: 'AlbumTrackReorder',
    examples: [
      {
        trackOrders: [
          { trackId: 104, order: 0 },
          { trackId: 101, order: 1 },
        ],
      },
    ],
  },
);

export const TrackOrder = Type.Object(
  { albumId: Id, trackIds: Type.Array(Id, { description: 'The tracks of the album in their new order' }) },
  { title: 'AlbumTrackReorderResult', examples: [{ albumId: 12, trackIds: [104, 101] }] },
);

const COLLABORATOR_EXAMPLE = {
  name: 'Maya Ortiz',
  userId: '0193a5f2-7d2f-7c4b-8e21-4d3e5f607182',
  email: null,
  roles: ['mixing engineer', 'producer'],
  trackIds: [101, 104],
  collaboratorIds: [21, 27],
};

export const AlbumCollaborator = Type.Object(
  {
    name: Type.String(),
    userId: Type.Union([Uuid, Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    roles: Type.Array(Type.String(), {
      description: 'Every role the person has on any track, alphabetically',
    }),
    trackIds: Type.Array(Id, { description: 'The tracks of the album the person worked on, in album order' }),
    collaboratorIds: Type.Array(Id, { description: 'The track collaborator entries merged into this one' }),
  },
  { title: 'AlbumCollaborator', examples: [COLLABORATOR_EXAMPLE] },
);

export const AlbumCollaborators = Type.Object(
  {
    items: Type.Array(AlbumCollaborator, {
      description:
        "One entry per person across the album's tracks (same user, else same e-mail, else same name), by name",
    }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Cursor of the next page (pass it as `cursor`), null on the last page',
    }),
  },
  { title: 'AlbumCollaborators', examples: [{ items: [COLLABORATOR_EXAMPLE], nextCursor: null }] },
);
export const AlbumCollaboratorsQuery = Type.Object(PageQuery);
