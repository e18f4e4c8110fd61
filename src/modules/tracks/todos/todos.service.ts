import type { Db } from '../../../db/client.ts';
import { actorOf } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { sqlState } from '../../../shared/db-errors.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeIdCursor, toPage, withTotal } from '../../../shared/pagination.ts';
import { findComment } from '../comments/comments.repository.ts';
import { teamEvent } from '../team-event.ts';
import { requireVersion, requireVersionForChange } from '../track-access.ts';
import { nonMembers } from '../track-teams.ts';
import * as repo from './todos.repository.ts';
import { TASK_TEXT_MAX_LENGTH } from './todos.schemas.ts';

/** A to-do's event (not a webhook type): its subject is the to-do. */
const todoEvent = (
  principal: Principal,
  teamId: number,
  type: string,
  todoId: number,
  payload: Record<string, unknown>,
) => teamEvent(principal, teamId, type, { type: 'todo', id: todoId }, payload);

type TodoInput = { todo?: string; done?: boolean; assigneeId?: string | null; dueDate?: string | null };

/** To-dos on a version: list, create, change, delete. */
export class TodosService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {}

  async list(
    principal: Principal,
    trackId: number,
    versionId: number,
    page: { limit: number; cursor?: string | undefined; count?: boolean },
  ) {
    await requireVersion(this.db, principal, trackId, versionId);
    const rows = await repo.listTodos(this.db, versionId, page.limit + 1, decodeIdCursor(page.cursor));
    return withTotal(
      toPage(rows, page.limit, (last) => last.id),
      page.count,
      () => repo.countTodos(this.db, versionId),
    );
  }

  async create(
    principal: Principal,
    trackId: number,
    versionId: number,
    input: TodoInput & { todo: string },
  ) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    await this.checkAssignee(track.teamId, input.assigneeId);
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const id = await repo.insertTodo(
        tx,
        versionId,
        { ...fieldsOf(input), text: input.todo.trim() },
        actorOf(principal),
        now,
      );
      await this.events.record(
        tx,
        todoEvent(principal, track.teamId, 'todo.created', id, { trackId, versionId }),
      );
      return (await repo.findTodo(tx, versionId, id))!;
    });
  }

  /**
   * Makes a to-do of a comment of the version, with the comment's text (shortened to a to-do's length);
   * the to-do keeps the link. A comment that has a to-do already is 409.
   */
  async fromComment(
    principal: Principal,
    trackId: number,
    versionId: number,
    commentId: number,
    input: { assigneeId?: string | null; dueDate?: string | null },
  ) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const comment = await findComment(this.db, versionId, commentId);
    if (!comment) throw errors.notFound('comment');
    if (comment.todoId !== null) throw hasTodo();
    await this.checkAssignee(track.teamId, input.assigneeId);
    const now = this.clock.now();
    try {
      return await this.db.transaction(async (tx) => {
        const text = [...comment.comment].slice(0, TASK_TEXT_MAX_LENGTH).join('');
        const fields = { ...fieldsOf(input), text, commentId };
        const id = await repo.insertTodo(tx, versionId, fields, actorOf(principal), now);
        await this.events.record(
          tx,
          todoEvent(principal, track.teamId, 'todo.created', id, { trackId, versionId, commentId }),
        );
        return (await repo.findTodo(tx, versionId, id))!;
      });
    } catch (error) {
      // Another call made the comment's to-do meanwhile (the unique index on the link).
      if (sqlState(error) === '23505') throw hasTodo();
      throw error;
    }
  }

  async update(principal: Principal, trackId: number, versionId: number, todoId: number, input: TodoInput) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    await this.requireTodo(versionId, todoId);
    await this.checkAssignee(track.teamId, input.assigneeId);
    return this.db.transaction(async (tx) => {
      await repo.updateTodo(tx, todoId, fieldsOf(input), this.clock.now());
      await this.events.record(
        tx,
        todoEvent(principal, track.teamId, 'todo.updated', todoId, {
          trackId,
          versionId,
          fields: Object.keys(input),
        }),
      );
      return (await repo.findTodo(tx, versionId, todoId))!;
    });
  }

  async remove(principal: Principal, trackId: number, versionId: number, todoId: number) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    await this.requireTodo(versionId, todoId);
    await this.db.transaction(async (tx) => {
      await repo.deleteTodo(tx, todoId);
      await this.events.record(
        tx,
        todoEvent(principal, track.teamId, 'todo.deleted', todoId, { trackId, versionId }),
      );
    });
  }

  private async requireTodo(versionId: number, todoId: number) {
    if (!(await repo.findTodo(this.db, versionId, todoId))) throw errors.notFound('to-do');
  }

  private async checkAssignee(teamId: number, assigneeId: string | null | undefined) {
    if (!assigneeId) return;
    if ((await nonMembers(this.db, teamId, [assigneeId])).length > 0)
      throw errors.validation([
        { path: '/body/assigneeId', message: 'is not a member of the team that owns the track' },
      ]);
  }
}

const hasTodo = () => errors.conflict('This comment has a to-do already');

function fieldsOf(input: TodoInput): repo.TodoFields {
  const fields: repo.TodoFields = {};
  if (input.todo !== undefined) fields.text = input.todo.trim();
  if (input.done !== undefined) fields.done = input.done;
  if (input.assigneeId !== undefined) fields.assigneeId = input.assigneeId;
  if (input.dueDate !== undefined) fields.dueDate = input.dueDate;
  return fields;
}
