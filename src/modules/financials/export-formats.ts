import { csvRows } from '../../shared/csv.ts';
import type { EntryRow } from './financials.repository.ts';
import type { ExportFormat } from './financials.schemas.ts';

/** The columns of a CSV export: the entry's own field names, so a file reads like the API. */
export const CSV_COLUMNS = [
  'id',
  'teamId',
  'isIncome',
  'amount',
  'currency',
  'occurredOn',
  'category',
  'description',
  'contactId',
  'status',
  'createdAt',
  'updatedAt',
] as const;

// Amounts are positive (the sign lives in isIncome) and dates start with a digit, so the writer's formula
// neutralisation never changes a number or a date.
const csvRecord = (e: EntryRow) => [
  String(e.id),
  String(e.teamId),
  String(e.isIncome),
  e.amount,
  e.currency,
  e.occurredOn,
  e.category,
  e.description,
  e.contactId === null ? null : String(e.contactId),
  e.status,
  e.createdAt.toISOString(),
  e.updatedAt.toISOString(),
];

/** The CSV text of an export: the header row, then each batch of entries as it is read. */
async function* csvChunks(batches: AsyncIterable<EntryRow[]>): AsyncGenerator<string> {
  yield csvRows([[...CSV_COLUMNS]]);
  for await (const batch of batches) yield csvRows(batch.map(csvRecord));
}

/**
 * One entry as JSON, the API's entry but with `amount` written as the exact decimal the database holds
 * (`10.50`): the file is written here, so nothing rounds it through a binary number.
 */
export function entryJson(e: EntryRow): string {
  return (
    `{"id":${e.id},"teamId":${e.teamId},"isIncome":${e.isIncome},"amount":${e.amount},` +
    `"currency":${JSON.stringify(e.currency)},"occurredOn":"${e.occurredOn}",` +
    `"category":${JSON.stringify(e.category)},"description":${JSON.stringify(e.description)},` +
    `"contactId":${e.contactId},"status":"${e.status}",` +
    `"createdAt":"${e.createdAt.toISOString()}","updatedAt":"${e.updatedAt.toISOString()}"}`
  );
}

/** The JSON text of an export, `{"items":[...]}`, each batch of entries written as it is read. */
async function* jsonChunks(batches: AsyncIterable<EntryRow[]>): AsyncGenerator<string> {
  yield '{"items":[';
  let first = true;
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    yield (first ? '' : ',') + batch.map(entryJson).join(',');
    first = false;
  }
  yield ']}';
}

export const EXPORT_WRITERS: Record<
  ExportFormat,
  { contentType: string; chunks: (batches: AsyncIterable<EntryRow[]>) => AsyncGenerator<string> }
> = {
  csv: { contentType: 'text/csv; charset=utf-8; header=present', chunks: csvChunks },
  json: { contentType: 'application/json; charset=utf-8', chunks: jsonChunks },
};
