import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { Contact, LeadStatusHistory, LeadStatusQuery, ResolveQuery } from './contacts.schemas.ts';
import { lookupOf } from './resolve-lookup.ts';
import { read, WHO_READS } from './route-auth.ts';

/** Finding one contact by what is known about them, and the lead-status history of one. */
export async function contactLookupsRoutes(app: App) {
  const contacts = app.services.contacts;

  app.get(
    '/api/v1/contacts/resolve',
    {
      ...read,
      schema: {
        operationId: 'contacts.resolve',
        summary: 'Find the contact with a handle, an e-mail address or a phone number',
        description:
          `${WHO_READS} Exactly one lookup per request (else 400): network and handle (case-insensitive, a leading @ ` +
          'ignored), email (case-insensitive), or phone (normalised to E.164 as on write; a national number ' +
          'needs phoneCountry). 404 when no contact of the team matches.',
        querystring: ResolveQuery,
        response: { 200: Contact },
      },
    },
    async (request) => {
      const { teamId, ...params } = request.query;
      return contacts.resolve(principalOf(request), teamId, lookupOf(params));
    },
  );

  app.get(
    '/api/v1/contacts/lead-status',
    {
      ...read,
      schema: {
        operationId: 'contacts.leadStatus',
        summary: "A contact's lead status and its history",
        description:
          `${WHO_READS} A contact of another team is 404. history starts with the status the contact was ` +
          'created with (from null), then every change, oldest first (the last 500).',
        querystring: LeadStatusQuery,
        response: { 200: LeadStatusHistory },
      },
    },
    async (request) => {
      const { teamId, contactId } = request.query;
      return contacts.leadStatus(principalOf(request), teamId, contactId);
    },
  );
}
