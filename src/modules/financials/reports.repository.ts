import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { financialEntries as entries } from '../../db/schema/index.ts';
import { type EntryFilter, entryFilter } from './financials.repository.ts';

/** Sums of one group, computed by the database in NUMERIC and sent as exact decimal text. */
export type SumsRow = { currency: string; income: string; expense: string; net: string; count: number };

const sums = {
  currency: entries.currency,
  income: sql<string>`coalesce(sum(${entries.amount}) filter (where ${entries.isIncome}), 0)::text`,
  expense: sql<string>`coalesce(sum(${entries.amount}) filter (where not ${entries.isIncome}), 0)::text`,
  net: sql<string>`sum(case when ${entries.isIncome} then ${entries.amount} else -${entries.amount} end)::text`,
  count: sql<number>`count(*)::integer`,
};

/** The filtered entries' sums per currency, by currency code. */
export function totalsByCurrency(db: Db, f: EntryFilter): Promise<SumsRow[]> {
  return db
    .select(sums)
    .from(entries)
    .where(entryFilter(f))
    .groupBy(entries.currency)
    .orderBy(sql`${entries.currency} collate "C"`);
}

const month = sql<string>`to_char(${entries.occurredOn}, 'YYYY-MM')`;
const category = entries.category;

/** Which grouping a summary row belongs to: `grouping(month, category)` of its grouping set. */
export const SUMMARY_SETS = { month: 1, category: 2, currency: 3 } as const;

export type SummaryRow = SumsRow & { set: number; month: string | null; category: string | null };

/**
 * The filtered entries' sums per currency, per month and currency, and per category and currency, in one
 * scan (grouping sets); ordered by set, then month, category (code point order, none last) and currency.
 */
export function summaryRows(db: Db, f: EntryFilter): Promise<SummaryRow[]> {
  const set: SQL<number> = sql<number>`grouping(${month}, ${category})::integer`;
  return db
    .select({ ...sums, set, month, category })
    .from(entries)
    .where(entryFilter(f))
    .groupBy(
      sql`grouping sets ((${entries.currency}), (${month}, ${entries.currency}), (${category}, ${entries.currency}))`,
    )
    .orderBy(set, month, sql`${category} collate "C" nulls last`, sql`${entries.currency} collate "C"`);
}
