import { Type } from '@sinclair/typebox';
import { CHAT_MENTION_KINDS } from '../../../db/schema/index.ts';
import { Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { Emoji } from '../../tracks/comments/comments.schemas.ts';

export const MAX_CONTENT_LENGTH = 10_000;

export const Content = Type.String({
  minLength: 1,
  maxLength: MAX_CONTENT_LENGTH,
  pattern: '\\S',
  description:
    'Text of 1 to 10,000 characters, not only white space. Mentions are written @[label](kind:id), kind one ' +
    'of user, track, album, contact (id: a user UUID or an integer id).',
});

export const MessageParams = Type.Object({ threadId: Uuid, messageId: Uuid });
export const ReactionParams = Type.Object({ threadId: Uuid, messageId: Uuid, emoji: Emoji });

export const CreateMessageBody = Type.Object({ content: Content });
export const EditMessageBody = Type.Object({ content: Content });
export const ReactionBody = Type.Object({ emoji: Emoji });
export const MessageListQuery = Type.Object(PageQuery);

export const Reaction = Type.Object({
  emoji: Type.String(),
  count: Type.Integer({ minimum: 1 }),
  me: Type.Boolean({ description: 'Whether the caller reacted with this emoji' }),
});

export const Mention = Type.Object({
  kind: StringEnum(CHAT_MENTION_KINDS),
  id: Type.String({ description: 'A user UUID, or the integer id of a track, album or contact, as text' }),
  label: Type.String(),
});

export const Message = Type.Object({
  id: Uuid,
  threadId: Uuid,
  authorId: Type.Union([Uuid, Type.Null()], {
    description: 'The author; null for a bot message (botId) or when the account was deleted',
  }),
  botId: Type.Union([Type.String(), Type.Null()], { description: 'The bot that wrote it, if one did' }),
  content: Type.Union([Type.String(), Type.Null()], { description: 'null once deleted' }),
  createdAt: Timestamp,
  editedAt: Type.Union([Timestamp, Type.Null()]),
  deleted: Type.Boolean(),
  reactions: Type.Array(Reaction, { description: 'One entry per emoji, in the order first used' }),
  mentions: Type.Array(Mention, {
    description:
      'Mentions in the content whose target the thread can see (people who see the thread; tracks, albums ' +
      "and contacts of the thread's teams), in order of appearance",
  }),
});

export const MessagePage = Page(Message);
