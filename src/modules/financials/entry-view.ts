import { amountNumber } from './amounts.ts';
import type { EntryRow } from './financials.repository.ts';

/** An entry as the API answers it: the amount as a JSON number. */
export function entryView(row: EntryRow) {
  return { ...row, amount: amountNumber(row.amount) };
}

export type EntryView = ReturnType<typeof entryView>;
