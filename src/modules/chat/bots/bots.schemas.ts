import { Type } from '@sinclair/typebox';
import { FOLLOW_UP_STATUSES } from '../../../db/schema/index.ts';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';

const BotId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'A bot id (the built-in one: assistant)',
});

export const BotParams = Type.Object({ botId: BotId });
export const FollowUpParams = Type.Object({ botId: BotId, taskId: Uuid });
export const TeamQuery = Type.Object({ teamId: Id });
export const FollowUpListQuery = Type.Object({ teamId: Id, ...PageQuery });
export const OpenBotBody = Type.Object(
  { teamId: { ...Id, description: 'The team the thread with the bot belongs to: a team of the caller' } },
  { title: 'ChatBotOpen' },
);

export const Bot = Type.Object(
  {
    id: Type.String({ description: 'What the bot routes take as {botId}' }),
    name: Type.String(),
    description: Type.String({ description: 'What the bot does, for people' }),
  },
  { title: 'ChatBot' },
);
export const BotList = Type.Object({ items: Type.Array(Bot) }, { title: 'ChatBotList' });

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
  },
);

export const FollowUpPage = Page(FollowUp);
