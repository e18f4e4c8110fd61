import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { Id, PageQuery } from '../../../shared/schemas.ts';
import { session } from '../route-auth.ts';

const NIGHT_DRIVE = { id: 101, title: 'Night Drive', artist: 'Luna Vale', position: 0 };
const TEAM_COLLECTION = {
  teamId: 7,
  teamName: 'Luna Vale',
  statuses: [
    {
      statusId: 'idea',
      name: 'Idea',
      tracks: [{ id: 104, title: 'Glass Harbor', artist: null, position: 0 }],
    },
    { statusId: 'mixing', name: 'Mixing', tracks: [NIGHT_DRIVE] },
  ],
  shared: [{ id: 230, title: 'Afterglow', artist: 'Kite Season', position: 3 }],
};

const PickerTrack = Type.Object(
  {
    id: Id,
    title: Type.String(),
    artist: Type.Union([Type.String(), Type.Null()]),
    position: Type.Integer({ description: 'Order within its status column (of the team that owns it)' }),
  },
  { title: 'TrackPickerItem', examples: [NIGHT_DRIVE] },
);

const TrackCollections = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          teamId: Id,
          teamName: Type.String(),
          statuses: Type.Array(
            Type.Object({ statusId: Type.String(), name: Type.String(), tracks: Type.Array(PickerTrack) }),
            { description: "The team's track statuses in board order, each with its tracks in board order" },
          ),
          shared: Type.Array(PickerTrack, { description: 'Tracks other teams share with this team' }),
        },
        { title: 'TrackCollection', examples: [TEAM_COLLECTION] },
      ),
      { description: 'Your teams by name; limit counts teams' },
    ),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Cursor of the next page (pass it as `cursor`), null on the last page',
    }),
    truncated: Type.Boolean({
      description:
        'True when the teams of this page hold more than 5000 tracks and only the first are listed',
    }),
  },
  {
    title: 'TrackCollections',
    examples: [{ items: [TEAM_COLLECTION], nextCursor: null, truncated: false }],
  },
);

/** The track picker: the caller's tracks of every team, grouped per team and status. */
export async function collectionsRoutes(app: App) {
  app.get(
    '/api/v1/track-collections/',
    {
      ...session,
      schema: {
        operationId: 'trackCollections.list',
        summary: 'Your tracks across all your teams, grouped per team and per status (for pickers)',
        description:
          'Session only (an API key gets 403 session_required): the caller’s own teams, every role. ' +
          'Soft-deleted tracks are left out. A team lists its own tracks by status and shared ones apart. ' +
          'Changes nothing.',
        querystring: Type.Object(PageQuery),
        response: { 200: TrackCollections },
      },
    },
    async (request) => app.services.trackCollections.list(principalOf(request), pageOf(request.query)),
  );
}
