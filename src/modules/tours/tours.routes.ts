import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { MEMBERS, session, sessionRead, TOUR_MEMBERS } from './route-auth.ts';
import { CreateTourBody, ReplaceTourBody, Tour, TourListQuery, TourPage } from './tours.schemas.ts';

/** Tours themselves: list, create, read, replace and delete. */
export async function toursRoutes(app: App) {
  const tours = app.services.tours;

  app.get(
    '/api/v1/tours/',
    {
      ...sessionRead,
      schema: {
        operationId: 'tours.list',
        summary: "List a team's tours, soonest first",
        description:
          `${MEMBERS} Ordered by startsOn, then id; tours without a start date come after every dated one. status and ` +
          'from narrow the list. Keyset pages: pass nextCursor as cursor with the same filters.',
        querystring: TourListQuery,
        response: { 200: TourPage },
      },
    },
    async (request) => {
      const { limit, cursor, ...filters } = request.query;
      return tours.list(principalOf(request), { ...filters, ...pageOf({ limit, cursor }) });
    },
  );

  app.post(
    '/api/v1/tours/',
    {
      ...session,
      schema: {
        operationId: 'tours.create',
        summary: 'Create a tour',
        description:
          `${MEMBERS} A new tour starts as planning unless status says otherwise. Dates are kept in date ` +
          'order; startsOn and endsOn default to the first and last date. 400 `validation_failed` names ' +
          'every problem at once: an unknown country code (ISO 3166-1 alpha-2), a ticketUrl that is not an ' +
          'absolute http(s) URL, endsOn before startsOn. Records `tour.created` in the event log; no webhook.',
        body: CreateTourBody,
        response: { 201: Tour },
      },
    },
    async (request, reply) => reply.code(201).send(await tours.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/tours/:id',
    {
      ...session,
      schema: {
        operationId: 'tours.get',
        summary: 'One tour, with its dates and current cover',
        description: `${TOUR_MEMBERS} \`cover\` carries a signed URL that expires (\`urlExpiresAt\`).`,
        params: IdParams,
        response: { 200: Tour },
      },
    },
    async (request) => tours.get(principalOf(request), request.params.id),
  );

  app.put(
    '/api/v1/tours/:id',
    {
      ...session,
      schema: {
        operationId: 'tours.replace',
        summary: 'Replace the editable fields of a tour',
        description:
          `${TOUR_MEMBERS} name is required; every other field left out returns to its default (status ` +
          'planning, dates empty, notes null, startsOn and endsOn from the dates), with the checks of create ' +
          '(400). The cover is changed through the covers endpoints, not here. Records `tour.updated`.',
        params: IdParams,
        body: ReplaceTourBody,
        response: { 200: Tour },
      },
    },
    async (request) => tours.replace(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/tours/:id',
    {
      ...session,
      schema: {
        operationId: 'tours.delete',
        summary: 'Delete a tour with its covers',
        description:
          `${TOUR_MEMBERS} Its cover images (and cover uploads still open) are deleted too; their public ` +
          'URLs answer 404 at once. Records `tour.deleted`.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await tours.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
