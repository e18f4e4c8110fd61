import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { ThreadParams } from '../chat.schemas.ts';
import { SESSION_ONLY, STREAM, session, THREAD_READERS } from '../route-auth.ts';
import { MemberParams, MembersBody, Thread } from './threads.schemas.ts';

const GROUP_ONLY =
  'Group threads only (400 not_a_group_thread otherwise); by the thread’s creator or an owner or admin of ' +
  'one of its teams (403 for other members).';

/** Leaving a thread, and the members of group threads. */
export async function chatThreadMembersRoutes(app: App) {
  const members = app.services.chat.members;

  app.post(
    '/api/v1/chat/threads/:threadId/leave',
    {
      ...session,
      schema: {
        operationId: 'chat.threads.leave',
        summary: 'Leave a thread',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} ` +
          'From a team thread (whose teams the caller still belongs to) this hides the thread from the ' +
          'caller’s list until a newer message arrives; they can still open it. From any other thread the ' +
          `caller is removed (member.removed, reason left, on ${STREAM}) and no longer sees it. Answers 204.`,
        params: ThreadParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await members.leave(principalOf(request), request.params.threadId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/chat/threads/:threadId/members',
    {
      ...session,
      schema: {
        operationId: 'chat.members.add',
        summary: 'Add people to a group thread',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} ${GROUP_ONLY} Each must be a member of one of the thread’s ` +
          'teams (400 naming the entry). Adding a member again changes nothing; member.added on the event ' +
          'stream for each new one. Answers the thread.',
        params: ThreadParams,
        body: MembersBody,
        response: { 200: Thread },
      },
    },
    async (request) => members.add(principalOf(request), request.params.threadId, request.body.memberIds),
  );

  app.delete(
    '/api/v1/chat/threads/:threadId/members/:userId',
    {
      ...session,
      schema: {
        operationId: 'chat.members.remove',
        summary: 'Remove someone from a group thread',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} ${GROUP_ONLY} Anyone may remove themselves (as leaving does). ` +
          `Emits member.removed (reason removed, or left) on ${STREAM}, to the removed person too. 404 ` +
          'when they are not a member.',
        params: MemberParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await members.remove(principalOf(request), request.params.threadId, request.params.userId);
      return reply.code(204).send(null);
    },
  );
}
