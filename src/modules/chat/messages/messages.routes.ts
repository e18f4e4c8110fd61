import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, NoContent } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { ThreadParams } from '../chat.schemas.ts';
import { SESSION_ONLY, STREAM, session, sessionExtension, THREAD_READERS } from '../route-auth.ts';
import {
  CreateMessageBody,
  EditMessageBody,
  Message,
  MessageListQuery,
  MessagePage,
  MessageParams,
  ReactionBody,
  ReactionParams,
} from './messages.schemas.ts';

const DELETED = errorResponse('conflict: the message was deleted');

const MENTIONS =
  'Mentions @[label](kind:id) are kept for targets the thread can see: people who see the thread, tracks, ' +
  'albums and contacts of its teams; any other mention stays plain text (no error, nothing revealed).';

/** Messages of a thread and their reactions. */
export async function chatMessagesRoutes(app: App) {
  const messages = app.services.chat.messages;

  app.get(
    '/api/v1/chat/threads/:threadId/messages',
    {
      ...session,
      schema: {
        operationId: 'chat.messages.list',
        summary: 'Messages of a thread, newest first',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} nextCursor goes back in time. Deleted messages stay in place ` +
          'with deleted: true and content null. Each message shows the caller’s own reactions as me.',
        params: ThreadParams,
        querystring: MessageListQuery,
        response: { 200: MessagePage },
      },
    },
    async (request) => messages.list(principalOf(request), request.params.threadId, pageOf(request.query)),
  );

  app.post(
    '/api/v1/chat/threads/:threadId/messages',
    {
      ...session,
      schema: {
        operationId: 'chat.messages.create',
        summary: 'Write a message',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} ${MENTIONS} Emits message.created on ${STREAM}, and a mention ` +
          'notification to each person mentioned. Without voiceFileKey, content is required (400). With ' +
          'voiceFileKey (from POST .../voice-upload, once the audio is PUT) the upload is registered with the ' +
          'message: the refusals of a registration apply (409 upload_missing, upload_registering or ' +
          'upload_closed; 413 quota_exceeded or payload_too_large; 400 size_mismatch or unsupported_file_type; ' +
          '404 for a key that is not a voice upload of this thread). In a bot thread the bot answers right ' +
          'after, as a message of its own.',
        params: ThreadParams,
        body: CreateMessageBody,
        response: { 201: Message, ...fileRefusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await messages.create(principalOf(request), request.params.threadId, request.body)),
  );

  app.patch(
    '/api/v1/chat/threads/:threadId/messages/:messageId',
    {
      ...session,
      schema: {
        operationId: 'chat.messages.update',
        summary: 'Edit a message (its author only)',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} Sets editedAt; mentions are read again (a newly mentioned ` +
          `person is notified). 403 for anyone but the author, 409 once deleted. ${MENTIONS} Emits ` +
          `message.updated on ${STREAM}.`,
        params: MessageParams,
        body: EditMessageBody,
        response: { 200: Message, 409: DELETED },
      },
    },
    async (request) =>
      messages.update(
        principalOf(request),
        request.params.threadId,
        request.params.messageId,
        request.body.content,
      ),
  );

  app.delete(
    '/api/v1/chat/threads/:threadId/messages/:messageId',
    {
      ...session,
      schema: {
        operationId: 'chat.messages.delete',
        summary: 'Delete a message (its author, or an owner or admin of one of the thread’s teams)',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} Its author, or an owner or admin of one of the thread’s teams ` +
          '(403 for anyone else). Soft: the message stays with deleted: true, its content, mentions and ' +
          `reactions go. Deleting it again answers 204 too. Emits message.deleted on ${STREAM}.`,
        params: MessageParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await messages.remove(principalOf(request), request.params.threadId, request.params.messageId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/chat/threads/:threadId/messages/:messageId/reactions',
    {
      ...session,
      schema: {
        operationId: 'chat.reactions.add',
        summary: 'React to a message with an emoji (idempotent: one reaction per person and emoji)',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} Answers the message. 409 on a deleted message. Emits ` +
          `reaction.added on ${STREAM} (once: reacting again changes nothing).`,
        params: MessageParams,
        body: ReactionBody,
        response: { 200: Message, 409: DELETED },
      },
    },
    async (request) =>
      messages.react(
        principalOf(request),
        request.params.threadId,
        request.params.messageId,
        request.body.emoji,
      ),
  );

  app.delete(
    '/api/v1/chat/threads/:threadId/messages/:messageId/reactions/:emoji',
    {
      ...sessionExtension,
      schema: {
        operationId: 'chat.reactions.remove',
        summary: 'Remove your reaction with this emoji (idempotent)',
        description:
          `${SESSION_ONLY} ${THREAD_READERS} The emoji is percent-encoded in the path. Emits ` +
          `reaction.removed on ${STREAM} when there was one; 204 either way.`,
        params: ReactionParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { threadId, messageId, emoji } = request.params;
      await messages.unreact(principalOf(request), threadId, messageId, emoji);
      return reply.code(204).send(null);
    },
  );
}
