import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { acceptOlderNames } from '../../shared/older-names.ts';
import { countedPageOf } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { Contact, ContactPage, ContactPatchBody, CreateContactBody, ListQuery } from './contacts.schemas.ts';
import { read, write } from './route-auth.ts';

const CONFLICTS =
  'The same e-mail address (case-insensitively) or the same handle on a network twice in a team is 409.';

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
          'Ordered by name (case-insensitive), then id. q is a case-insensitive prefix of the name, taken ' +
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
          `teamId (or team_id, as the specification names it) and name are required; a new contact starts as lead status new. ${CONFLICTS} Phone numbers ` +
          'are stored in E.164: send them in international format, or national with phoneCountry.',
        body: CreateContactBody,
        response: { 201: Contact },
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
          `Only the fields given change; networks, tags and groupIds replace the whole list. ${CONFLICTS} ` +
          'A patch that changes no value leaves the contact (and its timeline) as it was.',
        params: IdParams,
        body: ContactPatchBody,
        response: { 200: Contact },
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
          'Its timeline and lead-status history go with it; financial entries that named it stay, with ' +
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
