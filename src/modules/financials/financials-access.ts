import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { financialEntries as entries, teamMembers } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { type EntryRow, entryColumns } from './financials.repository.ts';

const entryOfMember = preparedQuery(
  'financial_entry_of_member',
  (db, p: Placeholders<{ entryId: number; userId: string }>) =>
    db
      .select(entryColumns)
      .from(entries)
      .where(
        and(
          eq(entries.id, p.entryId),
          sql`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = "financial_entries"."team_id" and ${teamMembers.userId} = ${p.userId})`,
        ),
      )
      .limit(1),
);

const entryOfTeam = preparedQuery(
  'financial_entry_of_team',
  (db, p: Placeholders<{ entryId: number; teamId: number }>) =>
    db
      .select(entryColumns)
      .from(entries)
      .where(and(eq(entries.id, p.entryId), eq(entries.teamId, p.teamId)))
      .limit(1),
);

/**
 * The tenancy guard of one entry: visible to the members of its team and to that team's keys; anything
 * else (missing, another team's) is 404.
 */
export async function requireEntry(db: Db, principal: Principal, entryId: number): Promise<EntryRow> {
  const [entry] =
    principal.type === 'key'
      ? await entryOfTeam(db, { entryId, teamId: principal.teamId })
      : await entryOfMember(db, { entryId, userId: principal.userId });
  if (!entry) throw errors.notFound('financial entry');
  return entry as EntryRow;
}
