import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { acceptOlderNames } from '../../shared/older-names.ts';
import { countedPageOf } from '../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../shared/schemas.ts';
import { Contact, ContactPage, ContactPatchBody, CreateContactBody, ListQuery } from './contacts.schemas.ts';
import { read, WHO_READS, WHO_WRITES, write } from './route-auth.ts';

const CONFLICTS =
  'The same e-mail address (case-insensitively) or the same handle on a network twice in a team is 409 ' +
  '`conflict`. groupIds must be groups of the team, and userId a user the caller may know (400 ' +
  '`validation_failed` otherwise, the same whether the user exists or not).';
const CONFLICT = errorResponse('Another contact of the team has this e-mail address or a handle of networks');
const ONE_CONTACT =
  "Any member of the contact's team (session), or an API key of that team; a contact of another team is 404.";

/** Contacts themselves: list, create, read, change and delete. */
export async function contactsRoutes(app: App) {
  const contacts = app.services.contacts;

  app.get(
    '/api/v1/contacts/',
    {
      ...read,
      schema: {
        operationId: 'contacts.list',
        summary: "List a team's contacts alphabetically",
        description:
          `${WHO_READS} Ordered by name (case-insensitive), then id. q is a case-insensitive prefix of the name, taken ` +
          'literally (no wildcards). Keyset pages: pass nextCursor as cursor with the same filters.',
        querystring: ListQuery,
        response: { 200: ContactPage },
      },
    },
    async (request) => {
      const { limit, cursor, count, ...filter } = request.query;
      return contacts.list(principalOf(request), { ...filter, ...countedPageOf({ limit, cursor, count }) });
    },
  );

  app.post(
    '/api/v1/contacts/',
    {
      ...write,
      ...acceptOlderNames,
      schema: {
        operationId: 'contacts.create',
        summary: 'Create a contact',
        description:
          `${WHO_WRITES} teamId (or team_id, as the specification names it) and name are required; a new ` +
          `contact starts as lead status new. ${CONFLICTS} ` +
          'Phone numbers are stored in E.164: send them in international format, or national with ' +
          'phoneCountry (an unreadable number or unknown country is 400). The contact gets its first ' +
          'timeline item and lead-status history entry. No webhook.',
        body: CreateContactBody,
        response: { 201: Contact, 409: CONFLICT },
      },
    },
    async (request, reply) => {
      return reply.code(201).send(await contacts.create(principalOf(request), request.body));
    },
  );

  app.get(
    '/api/v1/contacts/:id',
    {
      ...read,
      schema: {
        operationId: 'contacts.get',
        summary: 'One contact',
        description: `${ONE_CONTACT} Reads need no scope.`,
        params: IdParams,
        response: { 200: Contact },
      },
    },
    async (request) => contacts.get(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/contacts/:id',
    {
      ...write,
      schema: {
        operationId: 'contacts.update',
        summary: 'Change fields of a contact',
        description:
          `${ONE_CONTACT} With a key, the scope \`contacts:write\` (403 \`insufficient_scope\`). Only the ` +
          `fields given change; networks, tags and groupIds replace the whole list. ${CONFLICTS} ` +
          'Changes are added to its timeline (a lead-status move also to its history). A patch that changes ' +
          'no value leaves the contact (and its timeline) as it was.',
        params: IdParams,
        body: ContactPatchBody,
        response: { 200: Contact, 409: CONFLICT },
      },
    },
    async (request) => contacts.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/contacts/:id',
    {
      ...write,
      schema: {
        operationId: 'contacts.delete',
        summary: 'Delete a contact',
        description:
          `${ONE_CONTACT} With a key, the scope \`contacts:write\` (403 \`insufficient_scope\`). Its ` +
          'timeline and lead-status history go with it; financial entries that named it stay, with ' +
          'contactId null.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await contacts.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
