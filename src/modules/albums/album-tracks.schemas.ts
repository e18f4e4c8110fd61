import { Type } from '@sinclair/typebox';
import { Id, PageQuery, Uuid } from '../../shared/schemas.ts';

/** Most tracks one album holds. */
export const MAX_ALBUM_TRACKS = 500;

export const AlbumTrackParams = Type.Object({ id: Id, trackId: Id });

export const AddTracksBody = Type.Object({
  trackIds: Type.Array(Id, {
    minItems: 1,
    maxItems: 200,
    description:
      "Tracks of the album's team or shared with it, appended in this order; each must be new to the album",
  }),
});

export const TrackReorderBody = Type.Object({
  trackOrders: Type.Array(Type.Object({ trackId: Id, order: Type.Integer({ minimum: 0 }) }), {
    minItems: 1,
    maxItems: MAX_ALBUM_TRACKS,
    description: 'Every track of the album, each once, with its new order',
  }),
});

export const TrackOrder = Type.Object({ albumId: Id, trackIds: Type.Array(Id) });

export const AlbumCollaborator = Type.Object({
  name: Type.String(),
  userId: Type.Union([Uuid, Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  roles: Type.Array(Type.String(), { description: 'Every role the person has on any track, alphabetically' }),
  trackIds: Type.Array(Id, { description: 'The tracks of the album the person worked on, in album order' }),
  collaboratorIds: Type.Array(Id, { description: 'The track collaborator entries merged into this one' }),
});

export const AlbumCollaborators = Type.Object({
  items: Type.Array(AlbumCollaborator, {
    description:
      "One entry per person across the album's tracks (same user, else same e-mail, else same name), by name",
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export const AlbumCollaboratorsQuery = Type.Object(PageQuery);
