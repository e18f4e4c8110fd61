import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { IdParams, NoContent } from '../../../shared/schemas.ts';
import { session, sessionExtension } from '../route-auth.ts';
import {
  CampDetail,
  CampPage,
  CampParams,
  CampsQuery,
  CreateCampBody,
  Rsvp,
  RsvpBody,
  UpdateCampBody,
} from './camps.schemas.ts';

const UPCOMING_FIRST =
  'Upcoming first: camps not over yet (endsOn today or later, UTC) by start date, then past camps, the most ' +
  'recent first.';

/** Camps of an organisation, the caller's answers to them, and every camp the caller can see. */
export async function campsRoutes(app: App) {
  const { camps } = app.services.organisations;

  app.get(
    '/api/v1/organisations/:id/camps',
    {
      ...session,
      schema: {
        operationId: 'organisations.camps.list',
        summary: "The organisation's camps",
        description: UPCOMING_FIRST,
        params: IdParams,
        querystring: CampsQuery,
        response: { 200: CampPage },
      },
    },
    async (request) =>
      camps.listOfOrganisation(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/api/v1/organisations/:id/camps',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.camps.create',
        summary: 'Create a camp (owners and admins)',
        description:
          'Without `slug`, one is made from the name (`summer-camp`, then `summer-camp-2`, ...). Slugs are ' +
          'unique across the service (409 for a taken one) and never only digits, since `/camps/{camp}` ' +
          'takes an id or a slug. endsOn must not be before startsOn.',
        params: IdParams,
        body: CreateCampBody,
        response: { 201: CampDetail },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await camps.create(principalOf(request), request.params.id, request.body)),
  );

  app.get(
    '/api/v1/organisations/:id/camps/:campId',
    {
      ...session,
      schema: {
        operationId: 'organisations.camps.get',
        summary: 'One camp with how many accepted, declined or said maybe',
        params: CampParams,
        response: { 200: CampDetail },
      },
    },
    async (request) => camps.get(principalOf(request), request.params.id, request.params.campId),
  );

  app.patch(
    '/api/v1/organisations/:id/camps/:campId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.camps.update',
        summary: 'Change a camp (owners and admins)',
        description: 'Renaming keeps the slug; send `slug` to change it. null clears the location.',
        params: CampParams,
        body: UpdateCampBody,
        response: { 200: CampDetail },
      },
    },
    async (request) =>
      camps.update(principalOf(request), request.params.id, request.params.campId, request.body),
  );

  app.delete(
    '/api/v1/organisations/:id/camps/:campId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.camps.delete',
        summary: 'Delete a camp with its answers, listening queue and shared files (owners and admins)',
        params: CampParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await camps.remove(principalOf(request), request.params.id, request.params.campId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/organisations/:id/camps/:campId/rsvp',
    {
      ...session,
      schema: {
        operationId: 'organisations.camps.rsvp',
        summary: "Answer a camp invitation, or change the caller's answer",
        description:
          'Anyone who reads the organisation answers for themselves. A new or changed answer emits the ' +
          "webhook event camp.rsvp.updated to the organisation's endpoints; the same answer again changes " +
          'nothing.',
        params: CampParams,
        body: RsvpBody,
        response: { 200: Rsvp },
      },
    },
    async (request) =>
      camps.rsvp(principalOf(request), request.params.id, request.params.campId, request.body.status),
  );

  app.get(
    '/api/v1/camps/',
    {
      ...session,
      schema: {
        operationId: 'camps.list',
        summary: 'Every camp the caller can see, of the organisations they belong to or read through a team',
        description:
          'Session token only (an API key gets 403 `session_required`). Camps of the organisations the ' +
          `caller is a member of, or reads as a member of one of their teams. ${UPCOMING_FIRST} Keyset pages: ` +
          'pass nextCursor as cursor.',
        querystring: CampsQuery,
        response: { 200: CampPage },
      },
    },
    async (request) => camps.listReadable(principalOf(request), pageOf(request.query)),
  );
}
