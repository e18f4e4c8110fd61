import { type Static, Type } from '@sinclair/typebox';
import { REVIEW_DECISIONS } from '../../../db/schema/index.ts';
import { Id, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { OwningTeamId } from '../track-events.ts';

const ofReview = { reviewId: Id, versionId: Id, trackId: Id, teamId: OwningTeamId };

/** The webhook events of review requests: payload schemas, descriptions and examples. */
export const REVIEW_EVENTS = {
  'review.requested': {
    description: 'A review of a version was asked of members of the owning team (`reviewerIds`, user ids).',
    schema: Type.Object({ ...ofReview, reviewerIds: Type.Array(Uuid) }),
    example: {
      reviewId: 77,
      versionId: 502,
      trackId: 101,
      teamId: 7,
      reviewerIds: ['0190a6e4-8c1e-7cc2-9a4b-2f8e1c3d4b5a'],
    },
  },
  'review.decided': {
    description:
      'A reviewer decided; `status` is the review’s status after it: `open` until every reviewer approved ' +
      '(`approved`), or `changes_requested` as soon as one asks for changes.',
    schema: Type.Object({
      ...ofReview,
      reviewerId: Uuid,
      decision: StringEnum(REVIEW_DECISIONS),
      status: StringEnum(['open', 'approved', 'changes_requested'] as const),
    }),
    example: {
      reviewId: 77,
      versionId: 502,
      trackId: 101,
      teamId: 7,
      reviewerId: '0190a6e4-8c1e-7cc2-9a4b-2f8e1c3d4b5a',
      decision: 'approved',
      status: 'approved',
    },
  },
  'review.withdrawn': {
    description: 'The requester withdrew an open review.',
    schema: Type.Object(ofReview),
    example: { reviewId: 77, versionId: 502, trackId: 101, teamId: 7 },
  },
} as const;

export type ReviewEventData<T extends keyof typeof REVIEW_EVENTS> = Static<
  (typeof REVIEW_EVENTS)[T]['schema']
>;
