import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { interviewQuestions as q } from '../../db/schema/index.ts';

/** Where a page of the bank ends: `[uses, lastUsedAt, firstId]` of its last entry. */
export type BankKey = [uses: number, lastUsedAt: string, firstId: number];

export type BankRow = {
  question: string;
  uses: number;
  lastUsedAt: Date;
  lastInterviewId: number;
  firstId: number;
};

// One entry per question key; the most recent asking gives its wording and its interview.
const latest = (column: typeof q.question | typeof q.interviewId) =>
  sql`(array_agg(${column} order by ${q.askedAt} desc, ${q.id} desc))[1]`;
const uses = sql<number>`count(distinct ${q.interviewId})::integer`;
const lastUsedAt = sql<Date>`max(${q.askedAt})`;
// The oldest row of the entry: a tie-breaker that never changes while the entry exists.
const firstId = sql<number>`min(${q.id})`;

/**
 * Up to `limit` entries of the team's question bank after `after`: most used first, then most recently
 * asked, then the entry first asked earliest.
 */
export function listBank(
  db: Db,
  teamId: number,
  after: BankKey | undefined,
  limit: number,
): Promise<BankRow[]> {
  const afterKey = after
    ? sql`${uses} < ${after[0]}::integer or (${uses} = ${after[0]}::integer and (${lastUsedAt} < ${after[1]}::timestamptz
        or (${lastUsedAt} = ${after[1]}::timestamptz and ${firstId} > ${after[2]}::integer)))`
    : undefined;
  return db
    .select({
      question: latest(q.question).mapWith(String),
      uses: uses.mapWith(Number),
      lastUsedAt: lastUsedAt.mapWith(q.askedAt),
      lastInterviewId: latest(q.interviewId).mapWith(Number),
      firstId: firstId.mapWith(Number),
    })
    .from(q)
    .where(eq(q.teamId, teamId))
    .groupBy(q.questionKey)
    .having(afterKey)
    .orderBy(sql`${uses} desc`, sql`${lastUsedAt} desc`, sql`${firstId} asc`)
    .limit(limit);
}
