import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { createdBy, timestamps } from './columns.ts';
import { contacts } from './contacts.ts';
import { teams } from './teams.ts';

export const FINANCIAL_STATUSES = ['pending', 'confirmed', 'declined', 'lost'] as const;
export type FinancialStatus = (typeof FINANCIAL_STATUSES)[number];

/** A team's income or expense; `amount` is exact (NUMERIC) and summed in SQL, never as floats. */
export const financialEntries = pgTable(
  'financial_entries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    isIncome: boolean().notNull(),
    amount: numeric({ precision: 14, scale: 2, mode: 'string' }).notNull(),
    currency: text().notNull().default('EUR'),
    occurredOn: date({ mode: 'string' }).notNull(),
    category: text(),
    description: text(),
    /** A contact of the same team (checked on write); cleared when the contact is deleted. */
    contactId: integer().references(() => contacts.id, { onDelete: 'set null' }),
    status: text().$type<FinancialStatus>().notNull().default('confirmed'),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    check('financial_entries_amount_positive', sql`${t.amount} > 0`),
    check('financial_entries_currency_code', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    // Lists, exports and summaries walk one team's entries by date, newest first.
    index('financial_entries_team_date_idx').on(t.teamId, t.occurredOn.desc(), t.id.desc()),
    index('financial_entries_team_status_idx').on(t.teamId, t.status, t.occurredOn.desc(), t.id.desc()),
    index('financial_entries_contact_idx').on(t.contactId).where(sql`${t.contactId} is not null`),
  ],
);
