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

export const CreateMessageBody = Type.Object(
  {
    content: Type.Optional(
      Type.String({
        maxLength: MAX_CONTENT_LENGTH,
        description:
          'Text of up to 10,000 characters. Required (1..10,000, not only white space) without voiceFileKey; ' +
          'with a voice note it may be empty or left out. Mentions are written @[label](kind:id).',
      }),
    ),
    voiceFileKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description:
          'Extension: the fileKey answered by voice-upload, once its audio was PUT; the message carries it as voice',
      }),
    ),
  },
  { title: 'ChatMessageCreate' },
);
export const EditMessageBody = Type.Object({ content: Content }, { title: 'ChatMessageUpdate' });
export const ReactionBody = Type.Object({ emoji: Emoji }, { title: 'ChatReactionAdd' });
export const MessageListQuery = Type.Object(PageQuery);

export const Reaction = Type.Object(
  {
    emoji: Type.String(),
    count: Type.Integer({ minimum: 1 }),
    me: Type.Boolean({ description: 'Whether the caller reacted with this emoji' }),
  },
  { title: 'ChatReaction' },
);

export const Mention = Type.Object(
  {
    kind: StringEnum(CHAT_MENTION_KINDS),
    id: Type.String({ description: 'A user UUID, or the integer id of a track, album or contact, as text' }),
    label: Type.String(),
  },
  {
    title: 'ChatMention',
    description: 'A mention in the content, written @[label](kind:id)',
  },
);

export const Voice = Type.Object(
  {
    fileKey: Type.String({ description: 'What transcribe and save-voice take' }),
    url: Type.String({ description: 'A signed, expiring URL of the audio' }),
    urlExpiresAt: Timestamp,
    contentType: Type.String(),
    durationSeconds: Type.Union([Type.Number(), Type.Null()], {
      description: 'null when the audio could not be read',
    }),
    transcript: Type.Union([Type.String(), Type.Null()]),
    transcriptStatus: StringEnum(['none', 'pending', 'done', 'failed'] as const),
  },
  {
    title: 'ChatVoiceNote',
    description: 'Extension: the voice note of the message, when it has one',
  },
);

export const Message = Type.Object(
  {
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
    voice: Type.Optional(Voice),
    mentions: Type.Array(Mention, {
      description:
        'Mentions in the content whose target the thread can see (people who see the thread; tracks, albums ' +
        "and contacts of the thread's teams), in order of appearance",
    }),
  },
  {
    title: 'ChatMessage',
  },
);

export const MessagePage = Page(Message);
