import type { App } from '../../../app-types.ts';
import { countedPageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { read, write } from '../route-auth.ts';
import { OWNER_ONLY, READERS, WRITERS } from '../share-rules.ts';
import { versionArgs, versionRoutes } from '../version-routes.ts';
import { CreateTodoBody, Todo, TodoListQuery, TodoPage, TodoParams, TodoPatchBody } from './todos.schemas.ts';

const route = versionRoutes('todos');

/** To-dos on a version. */
export async function todosRoutes(app: App) {
  const todos = app.services.trackTodos;

  app.get(
    route.path(),
    route.options(read, 'list', {
      summary: 'The to-dos of a version, oldest first',
      description: `${READERS} A version of another track is 404. Changes nothing.`,
      querystring: TodoListQuery,
      response: { 200: TodoPage },
    }),
    async (request) => todos.list(...versionArgs(request), countedPageOf(request.query)),
  );

  app.post(
    route.path(),
    route.options(write, 'create', {
      summary: 'Add a to-do to a version (assignee: a member of the owning team)',
      description:
        `${WRITERS} ${OWNER_ONLY} An assignee who is not a member of the owning team is 400. Answers the ` +
        "new to-do (201); recorded in the team's activity as `todo.created` (no webhook).",
      body: CreateTodoBody,
      response: { 201: Todo },
    }),
    async (request, reply) => reply.code(201).send(await todos.create(...versionArgs(request), request.body)),
  );

  app.patch(
    route.path('/:todoId'),
    route.options(write, 'update', {
      summary: 'Change a to-do: text, done, assignee, due date (null clears)',
      description:
        `${WRITERS} ${OWNER_ONLY} A to-do of another version is 404; an assignee who is not a member of ` +
        "the owning team is 400. Recorded in the team's activity as `todo.updated` (no webhook).",
      params: TodoParams,
      body: TodoPatchBody,
      response: { 200: Todo },
    }),
    async (request) => todos.update(...versionArgs(request), request.params.todoId, request.body),
  );

  app.delete(
    route.path('/:todoId'),
    route.options(write, 'delete', {
      summary: 'Delete a to-do',
      description:
        `${WRITERS} ${OWNER_ONLY} A to-do of another version is 404. Recorded in the team's activity as ` +
        '`todo.deleted` (no webhook).',
      params: TodoParams,
      response: { 204: NoContent },
    }),
    async (request, reply) => {
      await todos.remove(...versionArgs(request), request.params.todoId);
      return reply.code(204).send(null);
    },
  );
}
