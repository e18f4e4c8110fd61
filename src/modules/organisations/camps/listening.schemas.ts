import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { EXAMPLE_TIME, EXAMPLE_USER } from '../organisations.schemas.ts';
import { CampRefParams } from './camps.schemas.ts';

/** How many tracks one camp's listening queue holds. */
export const MAX_LISTENING_ITEMS = 200;

export const ListeningItem = Type.Object(
  {
    id: Id,
    campId: Id,
    position: Type.Integer({ description: 'Place in the queue: items are listed in this order' }),
    track: Type.Object({ id: Id, title: Type.String(), teamId: Id, teamName: Type.String() }),
    submittedBy: Type.Union([Uuid, Type.Null()], {
      description: 'Who submitted it; null once that account is deleted',
    }),
    playedAt: Type.Union([Timestamp, Type.Null()], { description: 'When it was marked played' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'CampListeningItem',
    description: "A track in a camp's listening queue",
    examples: [
      {
        id: 21,
        campId: 5,
        position: 1,
        track: { id: 101, title: 'Night Drive', teamId: 7, teamName: 'Luna Vale' },
        submittedBy: EXAMPLE_USER,
        playedAt: null,
        createdAt: EXAMPLE_TIME,
        updatedAt: EXAMPLE_TIME,
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
  { title: 'CampListeningItemCreate', examples: [{ trackId: 101 }] },
);
export const UpdateListeningItemBody = Type.Object(
  {
    played: Type.Boolean({ description: 'true marks the track played now; false puts it back as unplayed' }),
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
  { title: 'CampListeningReorder', examples: [{ itemIds: [23, 21, 22] }] },
);
