import { Type } from '@sinclair/typebox';
import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { CSV_CELL_RULES } from '../../shared/csv.ts';
import { amountCheck, amountsOfEntries } from './amount-check.ts';
import { CSV_COLUMNS } from './export-formats.ts';
import {
  Entry,
  EXAMPLE_ENTRY,
  ExportQuery,
  ImportBody,
  ImportResult,
  MAX_IMPORT_ENTRIES,
} from './financials.schemas.ts';
import { read, WHO_READS, WHO_WRITES, write } from './route-auth.ts';

/** An import of 5,000 entries with long descriptions is larger than an ordinary request. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

const ExportResponse = {
  description:
    'The file, as an attachment (Content-Disposition names it). csv (default): RFC 4180, UTF-8, CRLF line ' +
    `ends, a header row (${CSV_COLUMNS.join(', ')}), empty cells for null; ${CSV_CELL_RULES} (amounts ` +
    'are positive, isIncome says which way the money went). json: {"items": [...]}, each item the entry ' +
    'as the API shows it, amount written with its two decimals. Newest occurredOn first; streamed.',
  content: {
    'text/csv': { schema: { type: 'string', description: 'CSV with a header row' } },
    'application/json': {
      schema: Type.Object(
        { items: Type.Array(Entry) },
        { title: 'FinancialExport', examples: [{ items: [EXAMPLE_ENTRY] }] },
      ),
    },
  },
};

/** Entries in and out in bulk: the streamed export and the all-or-nothing import. */
export async function financialTransfersRoutes(app: App) {
  const transfers = app.services.financialTransfers;

  app.get(
    '/api/v1/financials/export',
    {
      ...read,
      schema: {
        operationId: 'financials.export',
        summary: "Export a team's entries as CSV or JSON, streamed",
        description:
          `${WHO_READS} Every status; from and to are inclusive dates on occurredOn (from after to is 400). ` +
          'The file is written while it is ' +
          'read from the database, a batch at a time, so any number of entries takes the same memory. ' +
          'Entries changed during a long export may or may not be in it.',
        querystring: ExportQuery,
        response: { 200: ExportResponse },
      },
    },
    async (request, reply) => {
      const file = await transfers.export(principalOf(request), request.query);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  app.post(
    '/api/v1/financials/import',
    {
      ...write,
      bodyLimit: Math.max(app.deps.config.bodyLimit, IMPORT_BODY_LIMIT),
      attachValidation: true,
      preHandler: amountCheck(amountsOfEntries),
      schema: {
        operationId: 'financials.import',
        summary: `Create up to ${MAX_IMPORT_ENTRIES} entries at once, all or nothing`,
        description:
          `${WHO_WRITES} Each entry is the create body without teamId, with the same rules and defaults ` +
          '(the body may be up to 16 MiB). Runs at once (201, not a job). Every bad row is named in ' +
          'one 400 answer (details[].path such as /body/entries/17/amount) and then nothing is created. ' +
          'Answers {imported, ids}. Emits one webhook event, financial.import.completed {teamId, count}, ' +
          'not one per entry.',
        body: ImportBody,
        response: { 201: ImportResult },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await transfers.import(principalOf(request), request.body)),
  );
}
