import { and, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { financialEntries as entries, type FinancialStatus } from '../../db/schema/index.ts';
import { newTeamRow, type Stamps } from '../../shared/authorship.ts';

export const entryColumns = {
  id: entries.id,
  teamId: entries.teamId,
  isIncome: entries.isIncome,
  amount: entries.amount,
  currency: entries.currency,
  occurredOn: entries.occurredOn,
  category: entries.category,
  description: entries.description,
  contactId: entries.contactId,
  status: entries.status,
  createdAt: entries.createdAt,
  updatedAt: entries.updatedAt,
};

/** An entry as the database holds it: `amount` is its exact decimal text (`"10.50"`). */
export type EntryRow = {
  id: number;
  teamId: number;
  isIncome: boolean;
  amount: string;
  currency: string;
  occurredOn: string;
  category: string | null;
  description: string | null;
  contactId: number | null;
  status: FinancialStatus;
  createdAt: Date;
  updatedAt: Date;
};

/** The writable fields of an entry, `amount` as exact decimal text. */
export type EntryValues = {
  isIncome: boolean;
  amount: string;
  currency: string;
  occurredOn: string;
  category: string | null;
  description: string | null;
  contactId: number | null;
  status: FinancialStatus;
};

/** Which of one team's entries a list, a report or an export reads; dates are inclusive. */
export type EntryFilter = {
  teamId: number;
  from?: string | undefined;
  to?: string | undefined;
  isIncome?: boolean | undefined;
  status?: FinancialStatus | undefined;
};

/** Where a page of entries ends, newest first: `[occurredOn, id]` of its last entry. */
export type EntryKey = [occurredOn: string, id: number];

export function entryFilter(f: EntryFilter): SQL | undefined {
  return and(
    eq(entries.teamId, f.teamId),
    f.from === undefined ? undefined : gte(entries.occurredOn, f.from),
    f.to === undefined ? undefined : lte(entries.occurredOn, f.to),
    f.isIncome === undefined ? undefined : eq(entries.isIncome, f.isIncome),
    f.status === undefined ? undefined : eq(entries.status, f.status),
  );
}

// Spelled as the indexes are (`desc nulls last`): a bare DESC means NULLS FIRST, which PostgreSQL does not
// match to those indexes even on NOT NULL columns, and it would then sort every remaining entry per page.
const NEWEST_FIRST = [sql`${entries.occurredOn} desc nulls last`, sql`${entries.id} desc nulls last`];

/** Up to `limit` of the team's entries after `after`, newest `occurredOn` first, then by id. */
export async function listEntries(
  db: Db,
  f: EntryFilter,
  after: EntryKey | undefined,
  limit: number,
): Promise<EntryRow[]> {
  const afterKey = after
    ? sql`(${entries.occurredOn}, ${entries.id}) < (${after[0]}::date, ${after[1]}::integer)`
    : undefined;
  return db
    .select(entryColumns)
    .from(entries)
    .where(and(entryFilter(f), afterKey))
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
}

/** How many of the team's entries the filter keeps. */
export async function countEntries(db: Db, f: EntryFilter): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(entries).where(entryFilter(f));
  return row?.n ?? 0;
}

/** The keyset position of an entry in `listEntries` order. */
export const keyOf = (row: Pick<EntryRow, 'occurredOn' | 'id'>): EntryKey => [row.occurredOn, row.id];

const newRow = (values: EntryValues, stamps: Stamps) => ({ ...values, ...newTeamRow(stamps) });

export async function insertEntry(db: Db, values: EntryValues, stamps: Stamps): Promise<EntryRow> {
  const [row] = await db.insert(entries).values(newRow(values, stamps)).returning(entryColumns);
  return row!;
}

/**
 * Inserts entries in one statement whose rows travel as one JSON parameter: building and sending a
 * multi-row VALUES list of 13 parameters a row costs the process far more than the database reading JSON.
 * Answers their ids.
 */
export async function insertEntryBatch(db: Db, values: EntryValues[], stamps: Stamps): Promise<number[]> {
  const row = newTeamRow(stamps);
  const now = sql`${row.createdAt.toISOString()}::timestamptz`;
  const result = await db.execute<{ id: number }>(sql`
    insert into ${entries} (team_id, is_income, amount, currency, occurred_on, category, description,
      contact_id, status, created_by, created_by_key_id, created_at, updated_at)
    select ${row.teamId}::integer, r."isIncome", r.amount, r.currency, r."occurredOn", r.category, r.description,
      r."contactId", r.status, ${row.createdBy}::uuid, ${row.createdByKeyId}::integer, ${now}, ${now}
    from json_to_recordset(${JSON.stringify(values)}::json) as r("isIncome" boolean, amount numeric,
      currency text, "occurredOn" date, category text, description text, "contactId" integer, status text)
    returning id`);
  const rows = Array.isArray(result) ? result : (result as { rows: { id: number }[] }).rows;
  return rows.map((r) => Number(r.id));
}

export async function updateEntry(
  db: Db,
  teamId: number,
  entryId: number,
  fields: Partial<EntryValues>,
  now: Date,
): Promise<EntryRow | undefined> {
  const [row] = await db
    .update(entries)
    .set({ ...fields, updatedAt: now })
    .where(and(eq(entries.id, entryId), eq(entries.teamId, teamId)))
    .returning(entryColumns);
  return row;
}

export async function deleteEntry(db: Db, teamId: number, entryId: number): Promise<EntryRow | undefined> {
  const [row] = await db
    .delete(entries)
    .where(and(eq(entries.id, entryId), eq(entries.teamId, teamId)))
    .returning(entryColumns);
  return row;
}
