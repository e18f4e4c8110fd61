import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../../shared/schemas.ts';
import { SESSION_ONLY, session, sessionExtension } from '../route-auth.ts';
import {
  Building,
  BuildingPage,
  BuildingParams,
  CreateBuildingBody,
  CreateStudioBody,
  PlacesQuery,
  Studio,
  StudioPage,
  StudioParams,
  UpdateBuildingBody,
  UpdateStudioBody,
} from './places.schemas.ts';

const MANAGED =
  `${SESSION_ONLY} Owners and admins of the organisation (403 \`forbidden\` for its other readers, 404 for anyone ` +
  'who cannot read it).';
const READERS = `${SESSION_ONLY} Readable by its members and by the members of its teams (anyone else: 404).`;
const NAME_TAKEN = errorResponse('The building already has a studio of that name (ignoring case)');

/** Buildings and the studios in them. */
export async function placesRoutes(app: App) {
  const { places } = app.services.organisations;

  app.get(
    '/api/v1/organisations/:id/buildings',
    {
      ...session,
      schema: {
        operationId: 'organisations.buildings.list',
        summary: "The organisation's buildings, by name",
        description: `${READERS} Ordered by name (case-insensitive), then id; keyset pages.`,
        params: IdParams,
        querystring: PlacesQuery,
        response: { 200: BuildingPage },
      },
    },
    async (request) => places.listBuildings(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/api/v1/organisations/:id/buildings',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.buildings.create',
        summary: 'Add a building',
        description:
          `${MANAGED} \`timezone\` is an IANA name (Europe/Berlin), stored in its canonical spelling; an ` +
          'unknown zone is 400 `validation_failed`. Records `building.created` in the event log.',
        params: IdParams,
        body: CreateBuildingBody,
        response: { 201: Building },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await places.createBuilding(principalOf(request), request.params.id, request.body)),
  );

  app.patch(
    '/api/v1/organisations/:id/buildings/:buildingId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.buildings.update',
        summary: 'Change a building',
        description:
          `${MANAGED} Only the fields sent change (at least one); null clears address or timezone; an ` +
          'unknown time zone is 400. A building of another organisation is 404. Records `building.updated`.',
        params: BuildingParams,
        body: UpdateBuildingBody,
        response: { 200: Building },
      },
    },
    async (request) =>
      places.updateBuilding(principalOf(request), request.params.id, request.params.buildingId, request.body),
  );

  app.delete(
    '/api/v1/organisations/:id/buildings/:buildingId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.buildings.delete',
        summary: 'Delete a building and its studios',
        description:
          `${MANAGED} Sessions booked in its studios keep their times but no longer book a studio. A ` +
          'building of another organisation is 404. Records `building.deleted`.',
        params: BuildingParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await places.removeBuilding(principalOf(request), request.params.id, request.params.buildingId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/organisations/:id/studios',
    {
      ...session,
      schema: {
        operationId: 'organisations.studios.list',
        summary: "The organisation's studios with their buildings, by name",
        description: `${READERS} Ordered by name (case-insensitive), then id; keyset pages.`,
        params: IdParams,
        querystring: PlacesQuery,
        response: { 200: StudioPage },
      },
    },
    async (request) => places.listStudios(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/api/v1/organisations/:id/studios',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.studios.create',
        summary: 'Add a studio (a bookable room) to one of the buildings',
        description:
          `${MANAGED} \`buildingId\` must be a building of the organisation (404 otherwise). Names are ` +
          'unique within a building, ignoring case (409 `conflict`). Sessions of its teams may then book it; ' +
          'two bookings never overlap in one studio. Records `studio.created`.',
        params: IdParams,
        body: CreateStudioBody,
        response: { 201: Studio, 409: NAME_TAKEN },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await places.createStudio(principalOf(request), request.params.id, request.body)),
  );

  app.patch(
    '/api/v1/organisations/:id/studios/:studioId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.studios.update',
        summary: 'Rename a studio or move it to another building of the organisation',
        description:
          `${MANAGED} Only the fields sent change (at least one). A studio or building of another ` +
          'organisation is 404; a name the (new) building has already, ignoring case, is 409 `conflict`. ' +
          'Bookings stay. Records `studio.updated`.',
        params: StudioParams,
        body: UpdateStudioBody,
        response: { 200: Studio, 409: NAME_TAKEN },
      },
    },
    async (request) =>
      places.updateStudio(principalOf(request), request.params.id, request.params.studioId, request.body),
  );

  app.delete(
    '/api/v1/organisations/:id/studios/:studioId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.studios.delete',
        summary: 'Delete a studio',
        description:
          `${MANAGED} Sessions booked in it keep their times but no longer book a studio. A studio of ` +
          'another organisation is 404. Records `studio.deleted`.',
        params: StudioParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await places.removeStudio(principalOf(request), request.params.id, request.params.studioId);
      return reply.code(204).send(null);
    },
  );
}
