import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { Pipeline, PipelineQuery, Summary, SummaryQuery } from './financials.schemas.ts';
import { read, WHO_READS } from './route-auth.ts';

const EXACTNESS =
  'Sums are computed by the database in NUMERIC (exact) and answered as JSON numbers with two decimals; ' +
  'they stay exact as long as a total is below 10^13 in magnitude (15 significant digits, what a ' +
  'double-precision JSON reader keeps).';

/** The summary of confirmed entries and the pipeline of the other statuses. */
export async function financialReportsRoutes(app: App) {
  const reports = app.services.financialReports;

  app.get(
    '/api/v1/financials/summary',
    {
      ...read,
      schema: {
        operationId: 'financials.summary',
        summary: "Totals of a team's confirmed entries per currency, per month and per category",
        description:
          `${WHO_READS} Only confirmed entries count (pending, declined and lost are in the pipeline); from ` +
          'and to are inclusive dates on occurredOn (from after to is 400). totals: one row per ' +
          'currency {currency, income, expense, net, count}; months: {month: YYYY-MM, totals} for each month ' +
          'with entries, oldest first; categories: {category, totals} by name, entries without a category ' +
          `(category null) last. Amounts of different currencies are never added together. ${EXACTNESS}`,
        querystring: SummaryQuery,
        response: { 200: Summary },
      },
    },
    async (request) => reports.summary(principalOf(request), request.query),
  );

  app.get(
    '/api/v1/financials/pipeline',
    {
      ...read,
      schema: {
        operationId: 'financials.pipeline',
        summary: 'Entries of one status (pending by default) and their totals per currency',
        description:
          `${WHO_READS} totals cover every entry with the status; items are a page of them, newest occurredOn first ` +
          `(extension: limit and cursor, as in lists). ${EXACTNESS}`,
        querystring: PipelineQuery,
        response: { 200: Pipeline },
      },
    },
    async (request) => {
      const { limit, cursor, ...filters } = request.query;
      return reports.pipeline(principalOf(request), { ...filters, ...pageOf({ limit, cursor }) });
    },
  );
}
