import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';

export const CommentParams = Type.Object({ id: Id, versionId: Id, commentId: Id });

export const Emoji = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '^[^\\s\\u0000-\\u001f/]+$',
  description: 'One emoji (or a short :code:)',
});

export const ReactionParams = Type.Object({ id: Id, versionId: Id, commentId: Id, emoji: Emoji });

export const ReactionSummary = Type.Object({
  emoji: Type.String(),
  count: Type.Integer({ minimum: 1 }),
  userIds: Type.Array(Uuid, { description: 'Users who reacted (reactions by API keys are counted only)' }),
});

export const CommentAttachment = Type.Object({
  id: Id,
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer({ minimum: 0 }),
  url: Type.String({ description: 'Signed URL to show or play the file in place' }),
  downloadUrl: Type.String({ description: 'Signed URL to save the file under its name' }),
  urlExpiresAt: Timestamp,
});

export const Comment = Type.Object({
  id: Id,
  versionId: Id,
  parentId: Type.Union([Id, Type.Null()], { description: 'The comment this one replies to' }),
  atSeconds: Type.Union([Type.Number(), Type.Null()], {
    description: 'Position in the audio; null for a general comment',
  }),
  comment: Type.String(),
  authorId: Type.Union([Uuid, Type.Null()], { description: 'null when an API key wrote it' }),
  editedAt: Type.Union([Timestamp, Type.Null()]),
  createdAt: Timestamp,
  reactions: Type.Array(ReactionSummary),
  attachments: Type.Array(CommentAttachment, {
    description: 'Files attached with POST .../comments/with-attachments, in the order their uploads began',
  }),
});

export const CommentPage = Page(Comment);
export const CommentListQuery = Type.Object(PageQuery);

const CommentText = Type.String({ minLength: 1, maxLength: 10_000, pattern: '\\S' });
const AtSeconds = Type.Number({
  minimum: 0,
  maximum: 86_400,
  description: 'Seconds into the audio; at most the version’s duration when it is known',
});

export const CreateCommentBody = Type.Object({
  comment: CommentText,
  atSeconds: Type.Optional(Type.Union([AtSeconds, Type.Null()])),
  parentId: Type.Optional(Type.Union([Id, Type.Null()], { description: 'Reply to this top-level comment' })),
});

export const CommentPatchBody = Type.Object(
  {
    comment: Type.Optional(CommentText),
    atSeconds: Type.Optional(Type.Union([AtSeconds, Type.Null()])),
  },
  { minProperties: 1 },
);

export const ReactionBody = Type.Object({ emoji: Emoji });
