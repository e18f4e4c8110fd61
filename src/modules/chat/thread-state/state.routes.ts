import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { ThreadParams } from '../chat.schemas.ts';
import { SESSION_ONLY, STREAM, session, THREAD_READERS } from '../route-auth.ts';
import { Thread } from '../threads/threads.schemas.ts';
import {
  PinBody,
  ReadBody,
  Receipt,
  ReceiptPage,
  ReceiptQuery,
  TYPING_SECONDS,
  TypingBody,
  TypingList,
  TypingQuery,
} from './state.schemas.ts';

/** Typing marks, read markers and pins of a thread. */
export async function chatThreadStateRoutes(app: App) {
  const state = app.services.chat.state;

  app.get(
    '/api/v1/chat/threads/:threadId/typing',
    {
      ...session,
      schema: {
        operationId: 'chat.typing.list',
        summary: 'Who else is typing in the thread now',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} The caller is never listed. expiresAt: when the mark runs out ` +
          'unless renewed.',
        params: ThreadParams,
        querystring: TypingQuery,
        response: { 200: TypingList },
      },
    },
    async (request) => state.typing(principalOf(request), request.params.threadId, pageOf(request.query)),
  );

  app.post(
    '/api/v1/chat/threads/:threadId/typing',
    {
      ...session,
      schema: {
        operationId: 'chat.typing.set',
        summary: `Mark the caller as typing for ${TYPING_SECONDS} s, or clear the mark`,
        description:
          `${SESSION_ONLY} ${THREAD_READERS} typing: true (re)starts a ${TYPING_SECONDS}-second mark; false ` +
          `clears it. Emits typing on ${STREAM} (not replayed on resume). Answers 204.`,
        params: ThreadParams,
        body: TypingBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await state.setTyping(principalOf(request), request.params.threadId, request.body.typing);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/chat/threads/:threadId/read',
    {
      ...session,
      schema: {
        operationId: 'chat.read',
        summary: 'Move the caller’s read marker forward',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} ` +
          'lastReadMessageId must be a message of this thread (404 otherwise). The marker only moves ' +
          'forward: a message older than the current marker leaves it where it is, answered 200 all the ' +
          `same with the marker as it stands. Emits read on ${STREAM} when it moved; the thread's ` +
          'unreadCount and the inbox’s unread mentions follow it.',
        params: ThreadParams,
        body: ReadBody,
        response: { 200: Receipt },
      },
    },
    async (request) =>
      state.read(principalOf(request), request.params.threadId, request.body.lastReadMessageId),
  );

  app.get(
    '/api/v1/chat/threads/:threadId/read-receipts',
    {
      ...session,
      schema: {
        operationId: 'chat.readReceipts.list',
        summary: 'The read markers of the people who see the thread',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} People who never read the thread are not listed. Keyset pages ` +
          'by user id: pass nextCursor as cursor.',
        params: ThreadParams,
        querystring: ReceiptQuery,
        response: { 200: ReceiptPage },
      },
    },
    async (request) => state.receipts(principalOf(request), request.params.threadId, pageOf(request.query)),
  );

  app.post(
    '/api/v1/chat/threads/:threadId/pin',
    {
      ...session,
      schema: {
        operationId: 'chat.threads.pin',
        summary: 'Pin or unpin a thread for the caller',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} Pins are per person: nobody else sees it, and no event is ` +
          'emitted. Answers the thread.',
        params: ThreadParams,
        body: PinBody,
        response: { 200: Thread },
      },
    },
    async (request) => state.pin(principalOf(request), request.params.threadId, request.body.pinned),
  );
}
