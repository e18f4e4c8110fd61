import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { read, write } from '../route-auth.ts';
import { OWNER_ONLY } from '../share-rules.ts';
import { VersionParams } from '../versions/versions.schemas.ts';
import { CreateTodoBody, Todo, TodoListQuery, TodoPage, TodoParams, TodoPatchBody } from './todos.schemas.ts';

const BASE = '/api/v1/tracks/:id/versions/:versionId/todos';

/** To-dos on a version. */
export async function todosRoutes(app: App) {
  const todos = app.services.trackTodos;

  app.get(
    BASE,
    {
      ...read,
      schema: {
        operationId: 'tracks.versions.todos.list',
        summary: 'The to-dos of a version, oldest first',
        params: VersionParams,
        querystring: TodoListQuery,
        response: { 200: TodoPage },
      },
    },
    async (request) =>
      todos.list(principalOf(request), request.params.id, request.params.versionId, pageOf(request.query)),
  );

  app.post(
    BASE,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.todos.create',
        summary: 'Add a to-do to a version (assignee: a member of the owning team)',
        description: OWNER_ONLY,
        params: VersionParams,
        body: CreateTodoBody,
        response: { 201: Todo },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await todos.create(principalOf(request), request.params.id, request.params.versionId, request.body),
        ),
  );

  app.patch(
    `${BASE}/:todoId`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.todos.update',
        summary: 'Change a to-do: text, done, assignee, due date (null clears)',
        description: OWNER_ONLY,
        params: TodoParams,
        body: TodoPatchBody,
        response: { 200: Todo },
      },
    },
    async (request) => {
      const { id, versionId, todoId } = request.params;
      return todos.update(principalOf(request), id, versionId, todoId, request.body);
    },
  );

  app.delete(
    `${BASE}/:todoId`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.todos.delete',
        summary: 'Delete a to-do',
        description: OWNER_ONLY,
        params: TodoParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { id, versionId, todoId } = request.params;
      await todos.remove(principalOf(request), id, versionId, todoId);
      return reply.code(204).send(null);
    },
  );
}
