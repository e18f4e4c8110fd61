import { Type } from '@sinclair/typebox';
import { FOLLOW_UP_STATUSES } from '../../../db/schema/index.ts';
import { CountedPage, CountQuery, Id, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { CHAT_EXAMPLE } from '../chat.schemas.ts';
import { BOTS } from './bots.catalogue.ts';

const BotId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'A bot id (the built-in one: assistant)',
});

export const BotParams = Type.Object({ botId: BotId });
export const FollowUpParams = Type.Object({ botId: BotId, taskId: Uuid });
export const TeamQuery = Type.Object({ teamId: Id });
/** `teamId` of a request about one task: optional, since the task names its team. */
export const TaskTeamQuery = Type.Object({
  teamId: Type.Optional({
    ...Id,
    description:
      "The task's team. Optional: the task names its team; when given it must be that team, else 404",
  }),
});
export const FollowUpListQuery = Type.Object({ teamId: Id, ...PageQuery, ...CountQuery });
export const OpenBotBody = Type.Object(
  { teamId: { ...Id, description: 'The team the thread with the bot belongs to: a team of the caller' } },
  { title: 'ChatBotOpen', examples: [{ teamId: CHAT_EXAMPLE.teamId }] },
);

const BOT_EXAMPLES = BOTS.map(({ id, name, description }) => ({ id, name, description }));

export const Bot = Type.Object(
  {
    id: Type.String({ description: 'What the bot routes take as {botId}' }),
    name: Type.String(),
    description: Type.String({ description: 'What the bot does, for people' }),
  },
  { title: 'ChatBot', examples: BOT_EXAMPLES },
);
export const BotList = Type.Object(
  { items: Type.Array(Bot) },
  { title: 'ChatBotList', examples: [{ items: BOT_EXAMPLES }] },
);

export const FollowUp = Type.Object(
  {
    id: Uuid,
    teamId: Id,
    botId: Type.String(),
    person: Type.String(),
    network: Type.Union([Type.String(), Type.Null()], {
      description: 'instagram, tiktok, email, ... when named',
    }),
    contactId: Type.Union([Id, Type.Null()], {
      description: 'The contact of the team the person was matched to',
    }),
    dueAt: Type.Union([Timestamp, Type.Null()], { description: 'null when the message named no date' }),
    note: Type.Union([Type.String(), Type.Null()], { description: 'The message the task was read from' }),
    status: StringEnum(FOLLOW_UP_STATUSES),
    sourceMessageId: Type.Union([Uuid, Type.Null()]),
    completedAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'ChatFollowUp',
    description: 'A follow-up task the assistant bot keeps for the caller',
    examples: [
      {
        id: '0193a5f3-6f70-7b82-9d94-af1a2b3c4d5e',
        teamId: CHAT_EXAMPLE.teamId,
        botId: 'assistant',
        person: 'Maya',
        network: 'instagram',
        contactId: 31,
        dueAt: '2026-03-20T09:00:00.000Z',
        note: 'remind me to follow up with Maya on Instagram next Friday',
        status: 'open',
        sourceMessageId: CHAT_EXAMPLE.messageId,
        completedAt: null,
        createdAt: CHAT_EXAMPLE.sentAt,
        updatedAt: CHAT_EXAMPLE.sentAt,
      },
    ],
  },
);

export const FollowUpPage = CountedPage(FollowUp);
