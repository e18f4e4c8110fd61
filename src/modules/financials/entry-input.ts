import type { FinancialStatus } from '../../db/schema/index.ts';
import { amountText } from './amounts.ts';
import type { EntryValues } from './financials.repository.ts';

/** An entry as a client writes it (create body without teamId, or one import row). */
export type EntryInput = {
  isIncome: boolean;
  amount: number;
  currency?: string | undefined;
  occurredOn?: string | undefined;
  category?: string | null | undefined;
  description?: string | null | undefined;
  contactId?: number | null | undefined;
  status?: FinancialStatus | undefined;
};

export type EntryPatch = Partial<Omit<EntryInput, 'isIncome' | 'amount'>> & {
  isIncome?: boolean | undefined;
  amount?: number | undefined;
};

/** The row values of a new entry, with the defaults of the contract; `day` is today's date. */
export function newEntryValues(input: EntryInput, day: string): EntryValues {
  return {
    isIncome: input.isIncome,
    amount: amountText(input.amount),
    currency: input.currency ?? 'EUR',
    occurredOn: input.occurredOn ?? day,
    category: input.category ?? null,
    description: input.description ?? null,
    contactId: input.contactId ?? null,
    status: input.status ?? 'confirmed',
  };
}

/** The row values a patch changes: only the fields it gives. */
export function patchedValues({ amount, ...rest }: EntryPatch): Partial<EntryValues> {
  return amount === undefined ? rest : { ...rest, amount: amountText(amount) };
}
