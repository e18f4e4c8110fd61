import { Type } from '@sinclair/typebox';
import { CalendarDate, Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import {
  EXAMPLE_LATER,
  EXAMPLE_URL_EXPIRES,
  EXAMPLE_USER_ID,
  exampleDownloadUrl,
} from '../tracks.schemas.ts';
import { EXAMPLE_REVIEWER_ID } from '../versions/versions.schemas.ts';
import { GuestAuthor } from './comment-events.ts';

const REACTION_EXAMPLE = { emoji: '🔥', count: 2, userIds: [EXAMPLE_USER_ID, EXAMPLE_REVIEWER_ID] };
const ATTACHMENT_EXAMPLE = {
  id: 955,
  fileName: 'bridge-notes.png',
  contentType: 'image/png',
  size: 182_344,
  url: exampleDownloadUrl('pbWFnZS9icmlkZ2Utbm90ZXMucG5n'),
  downloadUrl: exampleDownloadUrl('pbWFnZS9icmlkZ2Utbm90ZXMucG5nIiwiZCI6ImEifQ'),
  urlExpiresAt: EXAMPLE_URL_EXPIRES,
};
/** A comment at 1:32 of version 502 with a reaction and a screenshot. */
export const COMMENT_EXAMPLE = {
  id: 640,
  versionId: 502,
  parentId: null,
  atSeconds: 92.5,
  comment: 'The snare is too loud here — @[Maya](user:0193a5f2-7d2f-7c4b-8e21-4d3e5f607182) can you check?',
  authorId: EXAMPLE_USER_ID,
  editedAt: null,
  createdAt: EXAMPLE_LATER,
  reactions: [REACTION_EXAMPLE],
  attachments: [ATTACHMENT_EXAMPLE],
  guest: null,
  resolvedAt: null,
  resolvedBy: null,
  carriedFrom: { versionId: 499, commentId: 611, atSeconds: 89.5, mapped: true },
  todoId: 88,
};

export const CommentParams = Type.Object({ id: Id, versionId: Id, commentId: Id });

export const Emoji = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '^[^\\s\\u0000-\\u001f/]+$',
  description: 'One emoji (or a short :code:)',
});

export const ReactionParams = Type.Object({ id: Id, versionId: Id, commentId: Id, emoji: Emoji });

export const ReactionSummary = Type.Object(
  {
    emoji: Type.String(),
    count: Type.Integer({ minimum: 1 }),
    userIds: Type.Array(Uuid, { description: 'Users who reacted (reactions by API keys are counted only)' }),
  },
  { title: 'CommentReaction', examples: [REACTION_EXAMPLE] },
);

export const CommentAttachment = Type.Object(
  {
    id: Id,
    fileName: Type.String(),
    contentType: Type.String(),
    size: Type.Integer({ minimum: 0 }),
    url: Type.String({ description: 'Signed URL to show or play the file in place' }),
    downloadUrl: Type.String({ description: 'Signed URL to save the file under its name' }),
    urlExpiresAt: Timestamp,
  },
  { title: 'CommentAttachment', examples: [ATTACHMENT_EXAMPLE] },
);

/** The comment of an earlier version a carried comment is a copy of. */
export const CarriedFrom = Type.Object(
  {
    versionId: Id,
    commentId: Id,
    atSeconds: Type.Union([Type.Number(), Type.Null()], { description: 'Its time in the earlier version' }),
    mapped: Type.Boolean({
      description:
        'Whether the time was mapped onto the new audio by aligning the two waveforms; false: the copy ' +
        'keeps the original time (the audio did not align well enough, or the time fell outside it)',
    }),
  },
  {
    title: 'CommentCarriedFrom',
    examples: [{ versionId: 499, commentId: 611, atSeconds: 89.5, mapped: true }],
  },
);

export const Comment = Type.Object(
  {
    id: Id,
    versionId: Id,
    parentId: Type.Union([Id, Type.Null()], { description: 'The comment this one replies to' }),
    atSeconds: Type.Union([Type.Number(), Type.Null()], {
      description: 'Position in the audio; null for a general comment',
    }),
    comment: Type.String({ description: 'The text; mentions are written `@[label](user:<id>)`' }),
    authorId: Type.Union([Uuid, Type.Null()], {
      description: 'null when an API key or a guest of a review link wrote it',
    }),
    editedAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
    reactions: Type.Array(ReactionSummary),
    attachments: Type.Array(CommentAttachment, {
      description: 'Files attached with POST .../comments/with-attachments, in the order their uploads began',
    }),
    guest: Type.Union([GuestAuthor, Type.Null()], {
      description: 'The guest who wrote it through a review link (the name they gave, the link); else null',
    }),
    resolvedAt: Type.Union([Timestamp, Type.Null()], {
      description:
        'When it was resolved (POST .../resolve); null while open. Open top-level comments at a ' +
        'time in the audio follow the song to the next version.',
    }),
    resolvedBy: Type.Union([Uuid, Type.Null()], {
      description: 'Who resolved it; null while open or when an API key resolved it',
    }),
    carriedFrom: Type.Union([CarriedFrom, Type.Null()], {
      description: 'Set on a copy made when a new version was registered; null on a comment written here',
    }),
    todoId: Type.Union([Id, Type.Null()], {
      description: 'The to-do made from this comment (POST .../todo), while it exists',
    }),
  },
  { title: 'VersionComment', examples: [COMMENT_EXAMPLE] },
);

export const CommentPage = Page(Comment);
export const CommentListQuery = Type.Object(PageQuery);

const CommentText = Type.String({ minLength: 1, maxLength: 10_000, pattern: '\\S' });
const AtSeconds = Type.Number({
  minimum: 0,
  maximum: 86_400,
  description: 'Seconds into the audio; at most the version’s duration when it is known',
});

const createCommentFields = {
  comment: CommentText,
  atSeconds: Type.Optional(Type.Union([AtSeconds, Type.Null()])),
  parentId: Type.Optional(Type.Union([Id, Type.Null()], { description: 'Reply to this top-level comment' })),
};

export const CreateCommentBody = Type.Object(createCommentFields, {
  title: 'VersionCommentCreate',
  examples: [
    { comment: COMMENT_EXAMPLE.comment, atSeconds: 92.5 },
    { comment: 'Fixed in Mix 3', parentId: 640 },
  ],
});

export const CommentPatchBody = Type.Object(
  {
    comment: Type.Optional(CommentText),
    atSeconds: Type.Optional(Type.Union([AtSeconds, Type.Null()])),
  },
  {
    title: 'VersionCommentUpdate',
    minProperties: 1,
    description: 'Only the fields given change; atSeconds null makes it a general comment',
    examples: [{ comment: 'The snare is too loud from 1:32 to 1:40', atSeconds: 92 }],
  },
);

export const ReactionBody = Type.Object(
  { emoji: Emoji },
  { title: 'CommentReactionAdd', examples: [{ emoji: '🔥' }] },
);

export const CommentTodoBody = Type.Object(
  {
    assigneeId: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: 'A member of the team that owns the track' }),
    ),
    dueDate: Type.Optional(Type.Union([CalendarDate, Type.Null()])),
  },
  {
    title: 'VersionCommentTodoCreate',
    description: 'The to-do takes the comment’s text; both fields are optional',
    examples: [{ assigneeId: EXAMPLE_REVIEWER_ID, dueDate: '2026-03-20' }, {}],
  },
);
