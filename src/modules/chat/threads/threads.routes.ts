import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { ThreadParams } from '../chat.schemas.ts';
import { SESSION_ONLY, STREAM, session, THREAD_READERS } from '../route-auth.ts';
import { CreateThreadBody, PatchThreadBody, Thread, ThreadListQuery, ThreadPage } from './threads.schemas.ts';

const MANAGERS =
  'Allowed to the thread’s creator and to owners and admins of its teams (403 for anyone else who sees it).';

/** Threads: list, create, read, rename, delete. */
export async function chatThreadsRoutes(app: App) {
  const threads = app.services.chat.threads;

  app.get(
    '/api/v1/chat/threads/',
    {
      ...session,
      schema: {
        operationId: 'chat.threads.list',
        summary: 'The threads the caller sees, newest activity first',
        description:
          `${SESSION_ONLY} teamId, when given, must be a team of the caller (404 otherwise). ` +
          'Without teamId: the threads of all the caller’s teams. Team threads of the caller’s teams, and the ' +
          'group, direct and bot threads they are a member of. A team thread the caller left stays out until ' +
          'a newer message arrives. Each thread carries the caller’s unreadCount and pinned, and its ' +
          'lastMessage. Keyset pages: pass nextCursor as cursor with the same teamId.',
        querystring: ThreadListQuery,
        response: { 200: ThreadPage },
      },
    },
    async (request) => {
      const { limit, cursor, teamId } = request.query;
      return threads.list(principalOf(request), { teamId, ...pageOf({ limit, cursor }) });
    },
  );

  app.post(
    '/api/v1/chat/threads/',
    {
      ...session,
      schema: {
        operationId: 'chat.threads.create',
        summary: 'Start a team, group or direct thread',
        description:
          `${SESSION_ONLY} The caller must belong to every team in teamIds (404 for a team they cannot see). team: open to ` +
          'every member of those teams (name required, no memberIds). group: the caller and memberIds, each a ' +
          'member of one of the teams (name required). direct: the caller and exactly one other person of ' +
          'those teams (memberIds with one id); if a direct thread of the same two people and teams exists, ' +
          'it is answered with 200 instead of a new one (201), and whoever of them had left is a member ' +
          'again. bot threads are opened with the bot endpoints (400 here). Someone in memberIds outside the ' +
          'teams is 400 naming the entry; a team or group thread without name is 400. A new thread emits ' +
          `thread.created on ${STREAM}; a direct thread answered again emits member.added for whoever of ` +
          'the two is a member again.',
        body: CreateThreadBody,
        response: { 200: Thread, 201: Thread },
      },
    },
    async (request, reply) => {
      const { created, thread } = await threads.create(principalOf(request), request.body);
      return reply.code(created ? 201 : 200).send(thread);
    },
  );

  app.get(
    '/api/v1/chat/threads/:threadId',
    {
      ...session,
      schema: {
        operationId: 'chat.threads.get',
        summary: 'One thread',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} With the caller’s unreadCount and pinned, and the thread’s ` +
          'lastMessage.',
        params: ThreadParams,
        response: { 200: Thread },
      },
    },
    async (request) => threads.get(principalOf(request), request.params.threadId),
  );

  app.patch(
    '/api/v1/chat/threads/:threadId',
    {
      ...session,
      schema: {
        operationId: 'chat.threads.update',
        summary: 'Rename a thread',
        description: `${SESSION_ONLY} ${THREAD_READERS} ${MANAGERS} Emits thread.updated on ${STREAM}.`,
        params: ThreadParams,
        body: PatchThreadBody,
        response: { 200: Thread },
      },
    },
    async (request) => threads.rename(principalOf(request), request.params.threadId, request.body.name),
  );

  app.delete(
    '/api/v1/chat/threads/:threadId',
    {
      ...session,
      schema: {
        operationId: 'chat.threads.delete',
        summary: 'Delete a thread with all its messages',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} ${MANAGERS} Its messages, reactions, read markers and voice ` +
          `notes go with it. Emits thread.deleted on ${STREAM} to everyone who saw the thread.`,
        params: ThreadParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await threads.remove(principalOf(request), request.params.threadId);
      return reply.code(204).send(null);
    },
  );
}
