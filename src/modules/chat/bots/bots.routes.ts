import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { countedPageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { SESSION_ONLY, session } from '../route-auth.ts';
import { Thread } from '../threads/threads.schemas.ts';
import {
  BotList,
  BotParams,
  FollowUpListQuery,
  FollowUpPage,
  FollowUpParams,
  OpenBotBody,
  TaskTeamQuery,
  TeamQuery,
} from './bots.schemas.ts';

const ASSISTANT =
  'The assistant answers every message in its thread right after it is stored, as an ordinary message of ' +
  'the thread by the bot (botId set, message.created). It understands "remind me to follow up with Maya on ' +
  'Instagram next Friday" (a follow-up task: dates are read in the user’s preferences.timezone, default UTC, ' +
  'looking forward; a day without a time is due at 09:00 there; no date, no dueAt), "list my follow-ups" / ' +
  '"what’s due", and "done with Maya". When a chat-completions model is configured (AI_SEARCH_LLM_*), it ' +
  'words the replies; the offline reply is used on timeout or error.';

/** The built-in bots, their threads and the follow-up tasks they keep. */
export async function chatBotsRoutes(app: App) {
  const bots = app.services.chat.bots;

  app.get(
    '/api/v1/chat/bots',
    {
      ...session,
      schema: {
        operationId: 'chat.bots.list',
        summary: 'The bots a team member can talk to',
        description:
          `${SESSION_ONLY} Members of teamId (404 otherwise). Today one built-in bot, assistant, which keeps ` +
          'follow-up tasks.',
        querystring: TeamQuery,
        response: { 200: BotList },
      },
    },
    async (request) => bots.list(principalOf(request), request.query.teamId),
  );

  app.post(
    '/api/v1/chat/bots/:botId/open',
    {
      ...session,
      schema: {
        operationId: 'chat.bots.open',
        summary: 'Your thread with the bot in the team (made on first use)',
        description:
          `${SESSION_ONLY} Members of teamId (404 otherwise; 404 for an unknown botId). One thread per ` +
          'person, team and bot: 201 when made (thread.created on the event stream), 200 with the same thread ' +
          `after. ${ASSISTANT}`,
        params: BotParams,
        body: OpenBotBody,
        response: { 200: Thread, 201: Thread },
      },
    },
    async (request, reply) => {
      const { created, thread } = await bots.open(
        principalOf(request),
        request.params.botId,
        request.body.teamId,
      );
      return reply.code(created ? 201 : 200).send(thread);
    },
  );

  app.get(
    '/api/v1/chat/bots/:botId/follow-ups',
    {
      ...session,
      schema: {
        operationId: 'chat.bots.followUps.list',
        summary: 'Your follow-up tasks with the bot in the team, newest first',
        description:
          `${SESSION_ONLY} Members of teamId (404 otherwise; 404 for an unknown botId). Only the caller's ` +
          'own tasks, whatever their status. A task that falls due also shows in the inbox and as a follow_up_due ' +
          'notification. Keyset pages: pass nextCursor as cursor with the same teamId.',
        params: BotParams,
        querystring: FollowUpListQuery,
        response: { 200: FollowUpPage },
      },
    },
    async (request) =>
      bots.followUps(
        principalOf(request),
        request.params.botId,
        request.query.teamId,
        countedPageOf(request.query),
      ),
  );

  app.delete(
    '/api/v1/chat/bots/:botId/follow-ups/:taskId',
    {
      ...session,
      schema: {
        operationId: 'chat.bots.followUps.delete',
        summary: 'Remove one of your follow-up tasks',
        description:
          `${SESSION_ONLY} Members of the task's team (404 otherwise). Another person’s task, or one of ` +
          'another team, is 404. teamId may be left out: the task names its team, and you must still be a ' +
          'member of it. The task leaves the inbox.',
        params: FollowUpParams,
        querystring: TaskTeamQuery,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { botId, taskId } = request.params;
      await bots.removeFollowUp(principalOf(request), botId, request.query.teamId, taskId);
      return reply.code(204).send(null);
    },
  );
}
