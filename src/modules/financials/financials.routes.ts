import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { countedPageOf } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { amountCheck, amountOfBody } from './amount-check.ts';
import { CreateEntryBody, Entry, EntryPage, EntryPatchBody, ListQuery } from './financials.schemas.ts';
import { READS, read, readExtension, WHO_READS, WHO_WRITES, write, writeExtension } from './route-auth.ts';

// Amounts with more than two decimals are found beside the schema's checks and answered with them.
const withAmount = { attachValidation: true, preHandler: amountCheck(amountOfBody) } as const;

/** Entries themselves: list, create, and (extensions) read, change and delete one. */
export async function financialsRoutes(app: App) {
  const financials = app.services.financials;

  app.get(
    '/api/v1/financials/',
    {
      ...read,
      schema: {
        operationId: 'financials.list',
        summary: "List a team's income and expense entries, newest first",
        description:
          `${WHO_READS} Every status (the summary counts confirmed entries only). from and to are inclusive ` +
          'dates on occurredOn (from after to is 400); type keeps income or expenses. Newest occurredOn ' +
          'first, entries of one day newest id first. Keyset pages: pass nextCursor as cursor with the same ' +
          'filters.',
        querystring: ListQuery,
        response: { 200: EntryPage },
      },
    },
    async (request) => {
      const { limit, cursor, count, ...filters } = request.query;
      return financials.list(principalOf(request), {
        ...filters,
        ...countedPageOf({ limit, cursor, count }),
      });
    },
  );

  app.post(
    '/api/v1/financials/',
    {
      ...write,
      ...withAmount,
      schema: {
        operationId: 'financials.create',
        summary: 'Record an income or expense entry',
        description:
          `${WHO_WRITES} amount is a JSON number above 0 with at most two decimals (0.001 is 400), stored ` +
          'exactly; currency an ISO 4217 code in capitals (default EUR); contactId a contact of the same ' +
          "team (another team's or a missing contact is 400 `validation_failed`). Emits the webhook event " +
          'financial.entry.created with the entry, in the same transaction.',
        body: CreateEntryBody,
        response: { 201: Entry },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await financials.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/financials/:id',
    {
      ...readExtension,
      schema: {
        operationId: 'financials.get',
        summary: 'One financial entry',
        description: `${READS} An entry of a team the caller is not in (or of another team than the key's) is 404.`,
        params: IdParams,
        response: { 200: Entry },
      },
    },
    async (request) => financials.get(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/financials/:id',
    {
      ...writeExtension,
      ...withAmount,
      schema: {
        operationId: 'financials.update',
        summary: 'Change fields of a financial entry',
        description:
          `${WHO_WRITES} Only the fields sent change (at least one), with the rules of create; null clears ` +
          'category, description or contactId. Emits the webhook event financial.entry.updated with the ' +
          'changed entry.',
        params: IdParams,
        body: EntryPatchBody,
        response: { 200: Entry },
      },
    },
    async (request) => financials.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/financials/:id',
    {
      ...writeExtension,
      schema: {
        operationId: 'financials.delete',
        summary: 'Delete a financial entry',
        description: `${WHO_WRITES} Emits the webhook event financial.entry.deleted with the entry as it was.`,
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await financials.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
