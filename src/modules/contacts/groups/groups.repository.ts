import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { contactGroups as groups } from '../../../db/schema/index.ts';
import type { Actor } from '../../../events/actor.ts';
import { createdByOf } from '../../../shared/authorship.ts';

const nameKey = sql<string>`lower(${groups.name})`;

const groupColumns = {
  id: groups.id,
  teamId: groups.teamId,
  name: groups.name,
  memberCount: sql<number>`(select count(*)::integer from contact_group_members m
    where m.group_id = "contact_groups"."id")`,
  createdAt: groups.createdAt,
  updatedAt: groups.updatedAt,
};

/** Where a page of groups ends: `[lower(name), id]` of its last group. */
export type GroupKey = [nameKey: string, id: number];

/** Up to `limit` of the team's groups after `after`, alphabetically (case-insensitive). */
export function listGroups(db: Db, teamId: number, after: GroupKey | undefined, limit: number) {
  const afterKey = after
    ? sql`(${nameKey}, ${groups.id}) > (${after[0]}::text, ${after[1]}::integer)`
    : undefined;
  return db
    .select({ ...groupColumns, nameKey })
    .from(groups)
    .where(and(eq(groups.teamId, teamId), afterKey))
    .orderBy(nameKey, asc(groups.id))
    .limit(limit);
}

export const keyOf = (row: { nameKey: string; id: number }): GroupKey => [row.nameKey, row.id];

export async function insertGroup(db: Db, values: { teamId: number; name: string; actor: Actor; now: Date }) {
  const [row] = await db
    .insert(groups)
    .values({
      teamId: values.teamId,
      name: values.name,
      ...createdByOf(values.actor),
      createdAt: values.now,
      updatedAt: values.now,
    })
    .returning({
      id: groups.id,
      teamId: groups.teamId,
      name: groups.name,
      createdAt: groups.createdAt,
      updatedAt: groups.updatedAt,
    });
  return { ...row!, memberCount: 0 };
}
