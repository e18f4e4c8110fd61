import type { Db } from '../../../db/client.ts';
import { compareKeys } from '../../../shared/pagination.ts';
import { amountNumber } from '../../financials/amounts.ts';
import * as repo from './rollups.repository.ts';

/** How many actions the list holds. */
export const NEXT_ACTIONS = 20;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** A follow-up due within this long is "due soon". */
export const DUE_SOON_MS = 48 * HOUR;
/** A qualified or negotiating contact with nothing new for this long is "stale". */
export const STALE_LEAD_MS = 14 * DAY;
/** Pending deals expected within this many days are listed. */
export const UPCOMING_DEAL_DAYS = 30;

/**
 * The rule of `next-actions`, as documented. Three queries (follow-ups, contacts, deals) each take at most the
 * list's length in an order that agrees with the priorities, so merging them loses nothing of the top.
 */
export const NEXT_ACTIONS_RULE =
  'Up to 20 actions, most pressing first (priority 1 to 6, then the oldest date): 1 open follow-ups past ' +
  'their due time; 2 pending deals (financial entries with status pending) whose date has passed; 3 open ' +
  'follow-ups due within 48 hours; 4 negotiating and 5 qualified contacts with no change or timeline event ' +
  'for 14 days; 6 pending deals expected within 30 days. `at` is the due time, the last activity or the ' +
  "deal's date.";

type Scope = { teamIds: number[]; followUpsOf?: string | undefined };

const dateOf = (instant: Date) => instant.toISOString().slice(0, 10);

/** The next actions over the teams (follow-ups: every task of them, or one person's). */
export async function nextActions(db: Db, scope: Scope, now: Date) {
  const today = dateOf(now);
  const until = dateOf(new Date(now.getTime() + UPCOMING_DEAL_DAYS * DAY));
  const [followUps, leads, deals] = await Promise.all([
    repo.followUpsDueBefore(
      db,
      { teamIds: scope.teamIds, userId: scope.followUpsOf },
      new Date(now.getTime() + DUE_SOON_MS),
      NEXT_ACTIONS,
    ),
    repo.staleLeads(db, scope.teamIds, new Date(now.getTime() - STALE_LEAD_MS), NEXT_ACTIONS),
    repo.pendingDeals(db, scope.teamIds, until, NEXT_ACTIONS),
  ]);
  const actions = [
    ...followUps.map((task) => {
      const overdue = task.dueAt! < now;
      return {
        kind: 'follow_up' as const,
        reason: overdue ? ('overdue' as const) : ('due_soon' as const),
        priority: overdue ? 1 : 3,
        teamId: task.teamId,
        at: task.dueAt!,
        title: `Follow up with ${task.person}${task.network ? ` on ${task.network}` : ''}`,
        followUp: { id: task.id, assignee: task.assignee, person: task.person, network: task.network },
      };
    }),
    ...leads.map((lead) => ({
      kind: 'lead' as const,
      reason: 'stale' as const,
      priority: lead.leadStatus === 'negotiating' ? 4 : 5,
      teamId: lead.teamId,
      at: lead.lastActivityAt,
      title: `${lead.name} (${lead.leadStatus}): no activity for ${Math.floor((now.getTime() - lead.lastActivityAt.getTime()) / DAY)} days`,
      contact: { id: lead.id, name: lead.name, leadStatus: lead.leadStatus as 'qualified' | 'negotiating' },
    })),
    ...deals.map((deal) => {
      const overdue = deal.occurredOn < today;
      return {
        kind: 'deal' as const,
        reason: overdue ? ('overdue' as const) : ('upcoming' as const),
        priority: overdue ? 2 : 6,
        teamId: deal.teamId,
        at: new Date(`${deal.occurredOn}T00:00:00.000Z`),
        title: `Pending ${deal.isIncome ? 'income' : 'expense'} ${deal.amount} ${deal.currency}${deal.description ? `: ${deal.description}` : ''}`,
        deal: {
          id: deal.id,
          isIncome: deal.isIncome,
          amount: amountNumber(deal.amount),
          currency: deal.currency,
          occurredOn: deal.occurredOn,
          description: deal.description,
          contactId: deal.contactId,
        },
      };
    }),
  ];
  actions.sort((a, b) => compareKeys(nextActionOrder.key(a), nextActionOrder.key(b)));
  return actions.slice(0, NEXT_ACTIONS);
}

type Ordered = {
  priority: number;
  at: Date;
  kind: string;
  followUp?: { id: string };
  contact?: { id: number };
  deal?: { id: number };
};

/** Most pressing first: by priority, then the oldest date, then kind and id (so pages are exact). */
export const nextActionOrder = {
  key: (a: Ordered): [number, number, string, string] => [
    a.priority,
    a.at.getTime(),
    a.kind,
    String(a.followUp?.id ?? a.contact?.id ?? a.deal?.id ?? ''),
  ],
  shape: ['number', 'number', 'string', 'string'] as const,
};
