import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { IdParams } from '../../../shared/schemas.ts';
import { read } from '../route-auth.ts';
import { TimelinePage, TimelineQuery } from './timeline.schemas.ts';

/** A contact's timeline. */
export async function contactTimelineRoutes(app: App) {
  const timeline = app.services.contactTimeline;

  app.get(
    '/api/v1/contacts/:id/timeline',
    {
      ...read,
      schema: {
        operationId: 'contacts.timeline',
        summary: 'What happened with a contact, newest first',
        description:
          "Any member of the contact's team (session), or an API key of that team (no scope needed); a " +
          'contact of another team is 404. Merges the contact’s changes (created, updated fields, lead status moves, notes) with the ' +
          'financial entries that name it and the team’s studio sessions it takes part in (as a participant ' +
          'by its linked user or its e-mail; at: the start), each item {kind, at, by, ...}. Items of the ' +
          'same instant come in ' +
          'a fixed order. Keyset pages: pass nextCursor as cursor.',
        params: IdParams,
        querystring: TimelineQuery,
        response: { 200: TimelinePage },
      },
    },
    async (request) => timeline.page(principalOf(request), request.params.id, pageOf(request.query)),
  );
}
