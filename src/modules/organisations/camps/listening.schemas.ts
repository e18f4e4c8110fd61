import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { CampRefParams } from './camps.schemas.ts';

/** How many tracks one camp's listening queue holds. */
export const MAX_LISTENING_ITEMS = 200;

const TRACK_EXAMPLE = { id: 101, title: 'Night Drive', teamId: 7, teamName: 'Luna Vale' };

const ListeningTrack = Type.Object(
  { id: Id, title: Type.String(), teamId: Id, teamName: Type.String() },
  {
    title: 'CampListeningTrack',
    description: 'The submitted track and the team that owns it',
    examples: [TRACK_EXAMPLE],
  },
);

export const ListeningItem = Type.Object(
  {
    id: Id,
    campId: Id,
    position: Type.Integer({ description: 'Place in the queue: items are listed in this order' }),
    track: ListeningTrack,
    submittedBy: Type.Union([Uuid, Type.Null()]),
    playedAt: Type.Union([Timestamp, Type.Null()], { description: 'When it was marked played' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'CampListeningItem',
    description: 'A track in the listening queue of a camp',
    examples: [
      {
        id: 18,
        campId: 5,
        position: 3,
        track: TRACK_EXAMPLE,
        submittedBy: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
        playedAt: null,
        createdAt: '2026-03-10T18:20:00.000Z',
        updatedAt: '2026-03-10T18:20:00.000Z',
      },
    ],
  },
);
export const ListeningPage = Page(ListeningItem);
export const ListeningQuery = Type.Object(PageQuery);
export const ListeningItemParams = Type.Object({ ...CampRefParams.properties, itemId: Id });

export const SubmitTrackBody = Type.Object(
  {
    trackId: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: "A track owned by one of the caller's teams",
    }),
  },
  { title: 'CampListeningSubmit', examples: [{ trackId: 101 }] },
);
export const UpdateListeningItemBody = Type.Object(
  {
    played: Type.Boolean({
      description: 'true marks the track played now; false puts it back as unplayed',
    }),
  },
  { title: 'CampListeningItemUpdate', examples: [{ played: true }] },
);
export const ReorderListeningBody = Type.Object(
  {
    itemIds: Type.Array(Id, {
      minItems: 1,
      maxItems: MAX_LISTENING_ITEMS,
      uniqueItems: true,
      description: 'Every item of the queue, once each, in the new order',
    }),
  },
  { title: 'CampListeningReorder', examples: [{ itemIds: [18, 16, 17] }] },
);
