import { Type } from '@sinclair/typebox';
import { CHAT_MENTION_KINDS } from '../../../db/schema/index.ts';
import { Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { Emoji } from '../../tracks/comments/comments.schemas.ts';
import { EXAMPLE_CONTENT, MESSAGE_EXAMPLE } from '../chat.schemas.ts';

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

const VOICE_FILE_KEY = 'teams/7/audio/0193a5f3-4d5e-7f60-9b72-8d9e0f1a2b3c.webm';

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
  { title: 'ChatMessageCreate', examples: [{ content: EXAMPLE_CONTENT }] },
);
export const EditMessageBody = Type.Object(
  { content: Content },
  { title: 'ChatMessageUpdate', examples: [{ content: `${EXAMPLE_CONTENT} (bounce 2)` }] },
);
export const ReactionBody = Type.Object(
  { emoji: Emoji },
  { title: 'ChatReactionAdd', examples: [{ emoji: '🔥' }] },
);
export const MessageListQuery = Type.Object(PageQuery);

export const Reaction = Type.Object(
  {
    emoji: Type.String(),
    count: Type.Integer({ minimum: 1 }),
    me: Type.Boolean({ description: 'Whether the caller reacted with this emoji' }),
  },
  { title: 'ChatReaction', examples: [{ emoji: '🔥', count: 2, me: true }] },
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
    examples: [{ kind: 'track', id: '101', label: 'Night Drive' }],
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
    examples: [
      {
        fileKey: VOICE_FILE_KEY,
        url: 'https://music.example.com/api/v1/files/download?token=eyJtIjoiR0VUIiwiayI6InRlYW1zLzcvYXVkaW8ifQ.Vn5',
        urlExpiresAt: '2026-03-14T10:41:12.000Z',
        contentType: 'audio/webm',
        durationSeconds: 14.2,
        transcript: 'Chorus idea: lift the last line up an octave',
        transcriptStatus: 'done',
      },
    ],
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
    examples: [MESSAGE_EXAMPLE],
  },
);

export const MessagePage = Page(Message);
