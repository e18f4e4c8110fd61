import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../../../shared/schemas.ts';
import { OwningTeamId } from '../track-events.ts';

const ofComment = { commentId: Id, versionId: Id, trackId: Id, teamId: OwningTeamId };
const AtSeconds = Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
  description: 'The time in the audio it is about; null for a general comment',
});

/** The guest who wrote a comment through a review link: the name they gave, and the link. */
export const GuestAuthor = Type.Object(
  {
    name: Type.String({ description: 'The name the guest gave' }),
    shareLinkId: Id,
  },
  { title: 'CommentGuest', examples: [{ name: 'Ana (A&R)', shareLinkId: 14 }] },
);

/** The webhook events of comments on versions: payload schemas, descriptions and examples. */
export const COMMENT_EVENTS = {
  'comment.created': {
    description:
      'A comment or a reply (`parentId`) was written on a version, by a member of the owning team or of a ' +
      'team the track is shared with, or by a guest through a review link (`guest`); sent to the owning team.',
    schema: Type.Object({
      ...ofComment,
      parentId: Type.Union([Id, Type.Null()]),
      comment: Type.String(),
      atSeconds: AtSeconds,
      attachmentCount: Type.Integer({ minimum: 0 }),
      guest: Type.Optional(GuestAuthor),
    }),
    example: {
      commentId: 3301,
      versionId: 502,
      trackId: 101,
      teamId: 7,
      parentId: null,
      comment: 'The snare is too loud here',
      atSeconds: 42.5,
      attachmentCount: 0,
    },
  },
  'comment.updated': {
    description: "A comment's text or time changed; `changes` holds each field given, with its new value.",
    schema: Type.Object({
      ...ofComment,
      changes: Type.Partial(Type.Object({ comment: Type.String(), atSeconds: AtSeconds })),
    }),
    example: {
      commentId: 3301,
      versionId: 502,
      trackId: 101,
      teamId: 7,
      changes: { comment: 'Fixed in v3' },
    },
  },
  'comment.deleted': {
    description: 'A comment was deleted with its replies (`removedCommentIds`) and their attachments.',
    schema: Type.Object({ ...ofComment, removedCommentIds: Type.Array(Id) }),
    example: { commentId: 3301, versionId: 502, trackId: 101, teamId: 7, removedCommentIds: [3301, 3302] },
  },
  'comment.resolved': {
    description:
      'A comment was resolved by a member of a team that holds the track or by a key of the owning team; ' +
      'its author is notified when someone else resolved it. Resolved comments stay where they are when a ' +
      'new version is registered.',
    schema: Type.Object(ofComment),
    example: { commentId: 3301, versionId: 502, trackId: 101, teamId: 7 },
  },
  'comment.unresolved': {
    description: 'A resolved comment was opened again.',
    schema: Type.Object(ofComment),
    example: { commentId: 3301, versionId: 502, trackId: 101, teamId: 7 },
  },
} as const;

export type CommentEventData<T extends keyof typeof COMMENT_EVENTS> = Static<
  (typeof COMMENT_EVENTS)[T]['schema']
>;
