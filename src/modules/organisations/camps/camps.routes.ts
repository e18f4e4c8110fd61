import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../../shared/schemas.ts';
import { SESSION_ONLY, session, sessionExtension } from '../route-auth.ts';
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
  "recent first. `myRsvp` is the caller's answer. Keyset pages.";
const READERS = `${SESSION_ONLY} Readable by the organisation's members and by the members of its teams`;
const MANAGED =
  `${SESSION_ONLY} Owners and admins of the organisation (403 \`forbidden\` for its other readers, 404 for anyone ` +
  'who cannot read it).';
const SLUG_TAKEN = errorResponse('Another camp has this slug (slugs are unique across the service)');

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
        description: `${READERS} (anyone else: 404). ${UPCOMING_FIRST}`,
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
          `${MANAGED} Without \`slug\`, one is made from the name (\`summer-camp\`, then \`summer-camp-2\`, ` +
          '...). Slugs are unique across the service (409 `conflict` for a taken one) and never only digits ' +
          '(400), since `/camps/{camp}` takes an id or a slug. endsOn before startsOn is 400 ' +
          '`validation_failed`. Records `camp.created` in the event log.',
        params: IdParams,
        body: CreateCampBody,
        response: { 201: CampDetail, 409: SLUG_TAKEN },
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
        description: `${READERS}; anyone else, or a camp of another organisation, gets 404.`,
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
        description:
          `${MANAGED} Only the fields sent change (at least one). Renaming keeps the slug; send \`slug\` ` +
          'to change it (a taken one is 409 `conflict`, only digits 400). null clears the location. The dates ' +
          'after the change must keep endsOn on or after startsOn (400). Records `camp.updated`.',
        params: CampParams,
        body: UpdateCampBody,
        response: { 200: CampDetail, 409: SLUG_TAKEN },
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
        description:
          `${MANAGED} The shared files' bytes are deleted too; sessions linked to the camp stay, without ` +
          'it. Records `camp.deleted` in the event log.',
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
          `${SESSION_ONLY} Anyone who reads the organisation (its members and the members of its teams) ` +
          'answers for themselves; anyone else, or a camp of another organisation, gets 404. A new or changed ' +
          "answer emits the webhook event camp.rsvp.updated to the organisation's endpoints (data: the answer " +
          'with previousStatus); the same answer again changes nothing and emits nothing.',
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
        description: `${SESSION_ONLY} ${UPCOMING_FIRST}`,
        querystring: CampsQuery,
        response: { 200: CampPage },
      },
    },
    async (request) => camps.listReadable(principalOf(request), pageOf(request.query)),
  );
}
