import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  contactEvents,
  contacts,
  type FollowUpStatus,
  financialEntries,
  followUpTasks,
  type LeadStatus,
} from '../../../db/schema/index.ts';
import { OPEN_LEAD_STATUSES, type OpenLeadStatus } from './rollups.schemas.ts';

/** Whose follow-up tasks a roll-up shows: every task of the teams, or one person's. */
export type FollowUpScope = { teamIds: number[]; userId?: string | undefined };

const followUpColumns = {
  id: followUpTasks.id,
  teamId: followUpTasks.teamId,
  assignee: followUpTasks.userId,
  person: followUpTasks.person,
  network: followUpTasks.network,
  contactId: followUpTasks.contactId,
  dueAt: followUpTasks.dueAt,
  note: followUpTasks.note,
  status: followUpTasks.status,
  completedAt: followUpTasks.completedAt,
  createdAt: followUpTasks.createdAt,
  updatedAt: followUpTasks.updatedAt,
};

const inScope = (scope: FollowUpScope) =>
  and(
    inArray(followUpTasks.teamId, scope.teamIds),
    scope.userId ? eq(followUpTasks.userId, scope.userId) : undefined,
  );

/** After the cursor `[dueAt | null, id]` of the order "earliest due first, undated last". */
function afterDue(after: [string | null, string] | undefined): SQL | undefined {
  if (!after) return undefined;
  const [dueAt, id] = after;
  if (dueAt === null) return sql`(${followUpTasks.dueAt} is null and ${followUpTasks.id} > ${id}::uuid)`;
  return sql`(${followUpTasks.dueAt} > ${dueAt}::timestamptz
    or (${followUpTasks.dueAt} = ${dueAt}::timestamptz and ${followUpTasks.id} > ${id}::uuid)
    or ${followUpTasks.dueAt} is null)`;
}

type FollowUpFilters = {
  status: FollowUpStatus;
  assignee?: string | undefined;
  dueBefore?: string | undefined;
};

const followUpFilter = (scope: FollowUpScope, filters: FollowUpFilters) =>
  and(
    inScope(scope),
    eq(followUpTasks.status, filters.status),
    filters.assignee ? eq(followUpTasks.userId, filters.assignee) : undefined,
    filters.dueBefore ? sql`${followUpTasks.dueAt} < ${filters.dueBefore}::timestamptz` : undefined,
  );

export function listFollowUps(
  db: Db,
  scope: FollowUpScope,
  filters: FollowUpFilters,
  limit: number,
  after?: [string | null, string],
) {
  return db
    .select(followUpColumns)
    .from(followUpTasks)
    .where(and(followUpFilter(scope, filters), afterDue(after)))
    .orderBy(sql`${followUpTasks.dueAt} asc nulls last`, asc(followUpTasks.id))
    .limit(limit);
}

/** How many tasks the filters keep (the list's `total`). */
export async function countFollowUps(db: Db, scope: FollowUpScope, filters: FollowUpFilters) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(followUpTasks)
    .where(followUpFilter(scope, filters));
  return row?.n ?? 0;
}

/** Open tasks due before `until` (overdue ones first). */
export function followUpsDueBefore(db: Db, scope: FollowUpScope, until: Date, limit: number) {
  return db
    .select(followUpColumns)
    .from(followUpTasks)
    .where(
      and(
        inScope(scope),
        eq(followUpTasks.status, 'open'),
        sql`${followUpTasks.dueAt} < ${until.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(followUpTasks.dueAt), asc(followUpTasks.id))
    .limit(limit);
}

const OPEN_STAGES = [...OPEN_LEAD_STATUSES];
/** Furthest along first: negotiating, qualified, contacted, new. */
const stageRank = sql<number>`(case ${contacts.leadStatus} when 'negotiating' then 0 when 'qualified' then 1
  when 'contacted' then 2 else 3 end)`;
const contactNameKey = sql<string>`lower(${contacts.name})`;

/** Open contacts (not won or lost) of the teams, furthest stage first, then by name; cursor `[rank, name, id]`. */
export function listProspects(
  db: Db,
  teamIds: number[],
  status: LeadStatus | undefined,
  limit: number,
  after?: [number, string, number],
) {
  return db
    .select({
      id: contacts.id,
      teamId: contacts.teamId,
      name: contacts.name,
      email: contacts.email,
      company: contacts.company,
      role: contacts.role,
      leadStatus: sql<OpenLeadStatus>`${contacts.leadStatus}`,
      updatedAt: contacts.updatedAt,
      rank: stageRank.mapWith(Number),
      nameKey: contactNameKey,
    })
    .from(contacts)
    .where(
      and(
        inArray(contacts.teamId, teamIds),
        status ? eq(contacts.leadStatus, status) : inArray(contacts.leadStatus, OPEN_STAGES),
        after
          ? sql`(${stageRank}, ${contactNameKey}, ${contacts.id}) > (${after[0]}::integer, ${after[1]}, ${after[2]}::integer)`
          : undefined,
      ),
    )
    .orderBy(asc(stageRank), asc(contactNameKey), asc(contacts.id))
    .limit(limit);
}

export async function prospectCounts(db: Db, teamIds: number[]) {
  const rows = await db
    .select({ status: contacts.leadStatus, n: sql<number>`count(*)`.mapWith(Number) })
    .from(contacts)
    .where(and(inArray(contacts.teamId, teamIds), inArray(contacts.leadStatus, OPEN_STAGES)))
    .groupBy(contacts.leadStatus);
  const counts = { new: 0, contacted: 0, qualified: 0, negotiating: 0 };
  for (const row of rows) if (row.status in counts) counts[row.status as keyof typeof counts] = row.n;
  return counts;
}

const lastActivity = sql<Date>`greatest(${contacts.updatedAt}, (select max(e.created_at)
  from ${contactEvents} e where e.contact_id = ${contacts.id}))`;

/** Qualified and negotiating contacts with nothing new since `before`: negotiating first, longest quiet first. */
export function staleLeads(db: Db, teamIds: number[], before: Date, limit: number) {
  return db
    .select({
      id: contacts.id,
      teamId: contacts.teamId,
      name: contacts.name,
      leadStatus: contacts.leadStatus,
      lastActivityAt: lastActivity.mapWith((value: string | Date) => new Date(value)),
    })
    .from(contacts)
    .where(
      and(
        inArray(contacts.teamId, teamIds),
        inArray(contacts.leadStatus, ['qualified', 'negotiating']),
        sql`${lastActivity} < ${before.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(stageRank), asc(lastActivity), asc(contacts.id))
    .limit(limit);
}

/** Pending entries (the deal pipeline) expected on or before `until`, earliest first. */
export function pendingDeals(db: Db, teamIds: number[], until: string, limit: number) {
  return db
    .select({
      id: financialEntries.id,
      teamId: financialEntries.teamId,
      isIncome: financialEntries.isIncome,
      amount: financialEntries.amount,
      currency: financialEntries.currency,
      occurredOn: financialEntries.occurredOn,
      description: financialEntries.description,
      contactId: financialEntries.contactId,
    })
    .from(financialEntries)
    .where(
      and(
        inArray(financialEntries.teamId, teamIds),
        eq(financialEntries.status, 'pending'),
        sql`${financialEntries.occurredOn} <= ${until}::date`,
      ),
    )
    .orderBy(asc(financialEntries.occurredOn), asc(financialEntries.id))
    .limit(limit);
}
