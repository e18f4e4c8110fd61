import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { interviewQuestions as q } from '../../db/schema/index.ts';
import type { QuestionValues } from './interview-input.ts';

export type QuestionRow = {
  id: number;
  interviewId: number;
  question: string;
  answer: string | null;
  position: number;
};

const questionColumns = {
  id: q.id,
  interviewId: q.interviewId,
  question: q.question,
  answer: q.answer,
  position: q.position,
};

/** The questions of these interviews, each interview's in order. */
export function questionsOf(db: Db, interviewIds: number[]): Promise<QuestionRow[]> {
  if (interviewIds.length === 0) return Promise.resolve([]);
  return db
    .select(questionColumns)
    .from(q)
    .where(inArray(q.interviewId, interviewIds))
    .orderBy(asc(q.interviewId), asc(q.position), asc(q.id));
}

/** Where a page of an interview's questions ends: `[position, id]` of its last one. */
export type QuestionKey = [position: number, id: number];

/** Up to `limit` of the interview's questions after `after`, in order. */
export function listQuestions(
  db: Db,
  interviewId: number,
  after: QuestionKey | undefined,
  limit: number,
): Promise<QuestionRow[]> {
  return db
    .select(questionColumns)
    .from(q)
    .where(
      and(
        eq(q.interviewId, interviewId),
        after ? sql`(${q.position}, ${q.id}) > (${after[0]}::integer, ${after[1]}::integer)` : undefined,
      ),
    )
    .orderBy(asc(q.position), asc(q.id))
    .limit(limit);
}

type Owner = { interviewId: number; teamId: number };

/** Adds questions at positions `0..n-1` in the order given. */
export async function insertQuestions(db: Db, owner: Owner, questions: QuestionValues[], now: Date) {
  if (questions.length === 0) return;
  await db.insert(q).values(
    questions.map((question, position) => ({
      ...owner,
      question: question.question,
      questionKey: question.questionKey,
      answer: question.answer,
      position,
      askedAt: now,
    })),
  );
}

/** The ids of the interview's questions. */
export async function questionIdsOf(db: Db, interviewId: number): Promise<Set<number>> {
  const rows = await db.select({ id: q.id }).from(q).where(eq(q.interviewId, interviewId));
  return new Set(rows.map((r) => r.id));
}

/**
 * Makes the interview's questions exactly `questions`, in that order: those with an id keep it (and their
 * `askedAt`, unless their wording changed), the others are added, and questions left out are deleted.
 */
export async function replaceQuestions(db: Db, owner: Owner, questions: QuestionValues[], now: Date) {
  const placed = questions.map((question, position) => ({ ...question, position }));
  const kept = placed.filter((p) => p.id !== undefined);
  const keptIds = kept.map((p) => p.id!);
  await db
    .delete(q)
    .where(and(eq(q.interviewId, owner.interviewId), keptIds.length ? notInArray(q.id, keptIds) : undefined));
  if (kept.length > 0) {
    // One statement for every kept question: its rows travel as one JSON document.
    const rows = JSON.stringify(
      kept.map((p) => ({
        id: p.id,
        question: p.question,
        key: p.questionKey,
        answer: p.answer,
        position: p.position,
      })),
    );
    await db.execute(sql`
      update ${q} set
        question = v.question,
        question_key = v.key,
        answer = v.answer,
        position = v.position,
        asked_at = case when ${q.questionKey} = v.key then ${q.askedAt} else ${now.toISOString()}::timestamptz end
      from jsonb_to_recordset(${rows}::jsonb) as v(id integer, question text, key text, answer text, position integer)
      where ${q.id} = v.id and ${q.interviewId} = ${owner.interviewId}::integer`);
  }
  const added = placed.filter((p) => p.id === undefined);
  if (added.length > 0) {
    await db.insert(q).values(
      added.map((p) => ({
        ...owner,
        question: p.question,
        questionKey: p.questionKey,
        answer: p.answer,
        position: p.position,
        askedAt: now,
      })),
    );
  }
}
