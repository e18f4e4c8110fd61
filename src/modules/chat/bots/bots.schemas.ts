import { Type } from '@sinclair/typebox';
import { FOLLOW_UP_STATUSES } from '../../../db/schema/index.ts';
import { CountedPage, CountQuery, Id, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';

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
export const OpenBotBody = Type.Object({ teamId: Id });

export const Bot = Type.Object({ id: Type.String(), name: Type.String(), description: Type.String() });
export const BotList = Type.Object({ items: Type.Array(Bot) });

export const FollowUp = Type.Object({
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
});

export const FollowUpPage = CountedPage(FollowUp);
