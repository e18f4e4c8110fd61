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

export const TodoParams = Type.Object({ id: Id, versionId: Id, todoId: Id });

export const Todo = Type.Object({
  id: Id,
  versionId: Id,
  todo: Type.String(),
  done: Type.Boolean(),
  assigneeId: Type.Union([Uuid, Type.Null()]),
  dueDate: Type.Union([CalendarDate, Type.Null()]),
  createdBy: Type.Union([Uuid, Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const TodoPage = CountedPage(Todo);
export const TodoListQuery = Type.Object({ ...PageQuery, ...CountQuery });

const TodoText = Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' });
const Assignee = Type.Union([Uuid, Type.Null()], { description: 'A member of the team that owns the track' });

export const CreateTodoBody = Type.Object({
  todo: TodoText,
  assigneeId: Type.Optional(Assignee),
  dueDate: Type.Optional(Type.Union([CalendarDate, Type.Null()])),
});

export const TodoPatchBody = Type.Object(
  {
    todo: Type.Optional(TodoText),
    done: Type.Optional(Type.Boolean()),
    assigneeId: Type.Optional(Assignee),
    dueDate: Type.Optional(Type.Union([CalendarDate, Type.Null()])),
  },
  { minProperties: 1 },
);
