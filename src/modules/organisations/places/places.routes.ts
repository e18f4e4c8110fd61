import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { IdParams, NoContent } from '../../../shared/schemas.ts';
import { session, sessionExtension } from '../route-auth.ts';
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

const MANAGED = 'Owners and admins of the organisation.';

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
        description: `${MANAGED} \`timezone\` is an IANA name (Europe/Berlin), stored in its canonical spelling.`,
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
        description: `${MANAGED} null clears address or timezone.`,
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
        description: `${MANAGED} Sessions booked in its studios keep their times but no longer book a studio.`,
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
        description: `${MANAGED} Names are unique within a building, ignoring case (409).`,
        params: IdParams,
        body: CreateStudioBody,
        response: { 201: Studio },
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
        description: MANAGED,
        params: StudioParams,
        body: UpdateStudioBody,
        response: { 200: Studio },
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
        description: `${MANAGED} Sessions booked in it keep their times but no longer book a studio.`,
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
