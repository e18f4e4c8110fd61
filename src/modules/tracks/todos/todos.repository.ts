import { and, asc, count, eq, gt } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { versionTodos } from '../../../db/schema/index.ts';
import type { Actor } from '../../../events/actor.ts';
import { createdByOf } from '../../../shared/authorship.ts';

const todoColumns = {
  id: versionTodos.id,
  versionId: versionTodos.versionId,
  todo: versionTodos.text,
  done: versionTodos.done,
  assigneeId: versionTodos.assigneeId,
  dueDate: versionTodos.dueDate,
  createdBy: versionTodos.createdBy,
  createdAt: versionTodos.createdAt,
  updatedAt: versionTodos.updatedAt,
  commentId: versionTodos.commentId,
  carriedFrom: versionTodos.carriedFrom,
};

export async function listTodos(db: Db, versionId: number, limit: number, after?: number) {
  return db
    .select(todoColumns)
    .from(versionTodos)
    .where(and(eq(versionTodos.versionId, versionId), after ? gt(versionTodos.id, after) : undefined))
    .orderBy(asc(versionTodos.id))
    .limit(limit);
}

export async function countTodos(db: Db, versionId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(versionTodos)
    .where(eq(versionTodos.versionId, versionId));
  return row?.n ?? 0;
}

export async function findTodo(db: Db, versionId: number, todoId: number) {
  const [row] = await db
    .select(todoColumns)
    .from(versionTodos)
    .where(and(eq(versionTodos.id, todoId), eq(versionTodos.versionId, versionId)));
  return row;
}

export type TodoFields = {
  text?: string;
  done?: boolean;
  assigneeId?: string | null;
  dueDate?: string | null;
  commentId?: number;
};

export async function insertTodo(
  db: Db,
  versionId: number,
  fields: TodoFields & { text: string },
  actor: Actor,
  now: Date,
) {
  const [row] = await db
    .insert(versionTodos)
    .values({
      versionId,
      ...fields,
      ...createdByOf(actor),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: versionTodos.id });
  return row!.id;
}

export async function updateTodo(db: Db, todoId: number, fields: TodoFields, now: Date) {
  await db
    .update(versionTodos)
    .set({ ...fields, updatedAt: now })
    .where(eq(versionTodos.id, todoId));
}

export async function deleteTodo(db: Db, todoId: number) {
  await db.delete(versionTodos).where(eq(versionTodos.id, todoId));
}
