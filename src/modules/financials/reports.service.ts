import type { Db } from '../../db/client.ts';
import type { FinancialStatus } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { toPage } from '../../shared/pagination.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import { amountNumber } from './amounts.ts';
import { type DateRange, dateRangeOf, decodeEntryCursor } from './entry-query.ts';
import { entryView } from './entry-view.ts';
import * as repo from './financials.repository.ts';
import { SUMMARY_SETS, type SumsRow, summaryRows, totalsByCurrency } from './reports.repository.ts';

const totalsOf = ({ currency, income, expense, net, count }: SumsRow) => ({
  currency,
  income: amountNumber(income),
  expense: amountNumber(expense),
  net: amountNumber(net),
  count,
});

type Totals = ReturnType<typeof totalsOf>;

/** Appends `totals` to the last group when it is the row's group (`same`), else to a new group. */
function appendTo<G extends { totals: Totals[] }>(
  groups: G[],
  same: (group: G) => boolean,
  open: () => G,
  totals: Totals,
): void {
  const last = groups.at(-1);
  if (last && same(last)) last.totals.push(totals);
  else groups.push({ ...open(), totals: [totals] });
}

/** What a team's money adds up to: the summary of confirmed entries, and the pipeline of one status. */
export class FinancialReportsService {
  constructor(private readonly db: Db) {}

  /** Confirmed entries summed per currency, per month and per category (each per currency). */
  async summary(principal: Principal, query: DateRange & { teamId: number }) {
    await requireTeam(this.db, principal, query.teamId);
    const range = dateRangeOf(query);
    const rows = await summaryRows(this.db, { teamId: query.teamId, ...range, status: 'confirmed' });
    const totals: Totals[] = [];
    const months: { month: string; totals: Totals[] }[] = [];
    const categories: { category: string | null; totals: Totals[] }[] = [];
    for (const row of rows) {
      const sums = totalsOf(row);
      if (row.set === SUMMARY_SETS.currency) totals.push(sums);
      else if (row.set === SUMMARY_SETS.month)
        appendTo(
          months,
          (g) => g.month === row.month,
          () => ({ month: row.month!, totals: [] }),
          sums,
        );
      else
        appendTo(
          categories,
          (g) => g.category === row.category,
          () => ({ category: row.category, totals: [] }),
          sums,
        );
    }
    return {
      teamId: query.teamId,
      from: range.from ?? null,
      to: range.to ?? null,
      totals,
      months,
      categories,
    };
  }

  /** A page of the entries with `status` (default pending) and the totals of all of them per currency. */
  async pipeline(
    principal: Principal,
    query: {
      teamId: number;
      status?: FinancialStatus | undefined;
      limit: number;
      cursor?: string | undefined;
    },
  ) {
    await requireTeam(this.db, principal, query.teamId);
    const status = query.status ?? 'pending';
    const after = decodeEntryCursor(query.cursor);
    const filter = { teamId: query.teamId, status };
    const [rows, sums] = await Promise.all([
      repo.listEntries(this.db, filter, after, query.limit + 1),
      totalsByCurrency(this.db, filter),
    ]);
    const page = toPage(rows, query.limit, repo.keyOf);
    return {
      status,
      totals: sums.map(totalsOf),
      items: page.items.map(entryView),
      nextCursor: page.nextCursor,
    };
  }
}
