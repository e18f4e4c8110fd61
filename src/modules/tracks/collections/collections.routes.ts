import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { Id, PageQuery } from '../../../shared/schemas.ts';
import { session } from '../route-auth.ts';

const PickerTrack = Type.Object({
  id: Id,
  title: Type.String(),
  artist: Type.Union([Type.String(), Type.Null()]),
  position: Type.Integer(),
});

const TrackCollections = Type.Object({
  items: Type.Array(
    Type.Object({
      teamId: Id,
      teamName: Type.String(),
      statuses: Type.Array(
        Type.Object({ statusId: Type.String(), name: Type.String(), tracks: Type.Array(PickerTrack) }),
        { description: "The team's track statuses in board order, each with its tracks in board order" },
      ),
      shared: Type.Array(PickerTrack, { description: 'Tracks other teams share with this team' }),
    }),
    { description: 'Your teams by name; limit counts teams' },
  ),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  truncated: Type.Boolean({
    description: 'True when the teams of this page hold more than 5000 tracks and only the first are listed',
  }),
});

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
          'Soft-deleted tracks are left out. A team lists its own tracks by status and shared ones apart.',
        querystring: Type.Object(PageQuery),
        response: { 200: TrackCollections },
      },
    },
    async (request) => app.services.trackCollections.list(principalOf(request), pageOf(request.query)),
  );
}
