import { Type } from '@sinclair/typebox';
import {
  CalendarDate,
  CountedPage,
  CountQuery,
  Id,
  PageQuery,
  Timestamp,
  Uuid,
} from '../../../shared/schemas.ts';
import { EXAMPLE_LATER, EXAMPLE_TIME, EXAMPLE_USER_ID } from '../tracks.schemas.ts';
import { EXAMPLE_REVIEWER_ID } from '../versions/versions.schemas.ts';

export const TodoParams = Type.Object({ id: Id, versionId: Id, todoId: Id });

/** The to-do of an earlier version a carried to-do is a copy of. */
const TodoCarriedFrom = Type.Object(
  { versionId: Id, todoId: Id },
  { title: 'TodoCarriedFrom', examples: [{ versionId: 499, todoId: 71 }] },
);

export const Todo = Type.Object(
  {
    id: Id,
    versionId: Id,
    todo: Type.String(),
    done: Type.Boolean(),
    assigneeId: Type.Union([Uuid, Type.Null()], { description: 'A member of the team that owns the track' }),
    dueDate: Type.Union([CalendarDate, Type.Null()]),
    createdBy: Type.Union([Uuid, Type.Null()], { description: 'null when an API key added it' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    commentId: Type.Union([Id, Type.Null()], {
      description: 'The comment of this version it was made from (POST .../comments/{commentId}/todo)',
    }),
    carriedFrom: Type.Union([TodoCarriedFrom, Type.Null()], {
      description: 'Set on a copy of an open to-do made when a new version was registered',
    }),
  },
  {
    title: 'VersionTodo',
    examples: [
      {
        id: 88,
        versionId: 502,
        todo: 'Re-record the bridge harmonies',
        done: false,
        assigneeId: EXAMPLE_REVIEWER_ID,
        dueDate: '2026-03-20',
        createdBy: EXAMPLE_USER_ID,
        createdAt: EXAMPLE_TIME,
        updatedAt: EXAMPLE_LATER,
        commentId: 640,
        carriedFrom: null,
      },
    ],
  },
);

export const TodoPage = CountedPage(Todo);
export const TodoListQuery = Type.Object({ ...PageQuery, ...CountQuery });

/** The longest text of a to-do. */
export const TASK_TEXT_MAX_LENGTH = 2000;
const TodoText = Type.String({ minLength: 1, maxLength: TASK_TEXT_MAX_LENGTH, pattern: '\\S' });
const Assignee = Type.Union([Uuid, Type.Null()], { description: 'A member of the team that owns the track' });

export const CreateTodoBody = Type.Object(
  {
    todo: TodoText,
    assigneeId: Type.Optional(Assignee),
    dueDate: Type.Optional(Type.Union([CalendarDate, Type.Null()])),
  },
  {
    title: 'VersionTodoCreate',
    examples: [
      { todo: 'Re-record the bridge harmonies', assigneeId: EXAMPLE_REVIEWER_ID, dueDate: '2026-03-20' },
    ],
  },
);

export const TodoPatchBody = Type.Object(
  {
    todo: Type.Optional(TodoText),
    done: Type.Optional(Type.Boolean()),
    assigneeId: Type.Optional(Assignee),
    dueDate: Type.Optional(Type.Union([CalendarDate, Type.Null()])),
  },
  {
    title: 'VersionTodoUpdate',
    minProperties: 1,
    description: 'Only the fields given change; null clears the assignee or the due date',
    examples: [{ done: true }, { assigneeId: null, dueDate: '2026-03-27' }],
  },
);
