import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { ErrorRef } from '../../../shared/schemas.ts';
import { session } from '../route-auth.ts';
import { OWNER_ONLY } from '../share-rules.ts';
import { VersionDetail, VersionParams } from '../versions/versions.schemas.ts';
import { ReviewDecisionBody, ReviewRequestBody } from './reviews.schemas.ts';

const BASE = '/api/v1/tracks/:id/versions/:versionId/review';
const noOpenReview = { 409: { ...ErrorRef, description: 'The version has no open review' } };

/** Review requests on a version; each answers the version detail with its review state. */
export async function reviewsRoutes(app: App) {
  const reviews = app.services.trackReviews;

  app.post(
    `${BASE}/request`,
    {
      ...session,
      schema: {
        operationId: 'tracks.versions.review.request',
        summary: 'Ask team members to review this version',
        description: `Every reviewer must be a member of the owning team (400 otherwise); one open review at a time (409). ${OWNER_ONLY}`,
        params: VersionParams,
        body: ReviewRequestBody,
        response: { 200: VersionDetail, 409: { ...ErrorRef, description: 'An open review exists' } },
      },
    },
    async (request) =>
      reviews.request(
        principalOf(request),
        request.params.id,
        request.params.versionId,
        request.body.reviewerIds,
      ),
  );

  app.post(
    `${BASE}/withdraw`,
    {
      ...session,
      schema: {
        operationId: 'tracks.versions.review.withdraw',
        summary: 'Withdraw the open review (its requester only)',
        description: OWNER_ONLY,
        params: VersionParams,
        response: { 200: VersionDetail, ...noOpenReview },
      },
    },
    async (request) => reviews.withdraw(principalOf(request), request.params.id, request.params.versionId),
  );

  app.post(
    `${BASE}/listened`,
    {
      ...session,
      schema: {
        operationId: 'tracks.versions.review.listened',
        summary: 'Mark that you listened to the version under review (reviewers only)',
        description: OWNER_ONLY,
        params: VersionParams,
        response: { 200: VersionDetail, ...noOpenReview },
      },
    },
    async (request) => reviews.listened(principalOf(request), request.params.id, request.params.versionId),
  );

  app.post(
    `${BASE}/decide`,
    {
      ...session,
      schema: {
        operationId: 'tracks.versions.review.decide',
        summary: 'Approve or request changes (reviewers only)',
        description: `Any "changes_requested" closes the review with that state; once every reviewer approved, it closes approved. ${OWNER_ONLY}`,
        params: VersionParams,
        body: ReviewDecisionBody,
        response: { 200: VersionDetail, ...noOpenReview },
      },
    },
    async (request) =>
      reviews.decide(principalOf(request), request.params.id, request.params.versionId, request.body.status),
  );
}
