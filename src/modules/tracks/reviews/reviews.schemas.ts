import { Type } from '@sinclair/typebox';
import { Uuid } from '../../../shared/schemas.ts';
import { EXAMPLE_REVIEWER_ID } from '../versions/versions.schemas.ts';

export const ReviewRequestBody = Type.Object(
  {
    reviewerIds: Type.Array(Uuid, {
      minItems: 1,
      maxItems: 50,
      uniqueItems: true,
      description: 'Members of the team that owns the track',
    }),
  },
  { title: 'VersionReviewRequest', examples: [{ reviewerIds: [EXAMPLE_REVIEWER_ID] }] },
);

export const ReviewDecisionBody = Type.Object(
  {
    status: Type.Union([Type.Literal('approved'), Type.Literal('changes_requested')], {
      description:
        'changes_requested closes the review at once; it closes approved once every reviewer approved',
    }),
  },
  {
    title: 'VersionReviewDecision',
    examples: [{ status: 'approved' }, { status: 'changes_requested' }],
  },
);
