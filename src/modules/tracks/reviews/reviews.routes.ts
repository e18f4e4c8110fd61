import type { App } from '../../../app-types.ts';
import { errorResponse } from '../../../shared/schemas.ts';
import { session } from '../route-auth.ts';
import { OWNER_ONLY, SESSION_WRITERS } from '../share-rules.ts';
import { versionArgs, versionRoutes } from '../version-routes.ts';
import { VersionDetail } from '../versions/versions.schemas.ts';
import { ReviewDecisionBody, ReviewRequestBody } from './reviews.schemas.ts';

const route = versionRoutes('review');
const noOpenReview = { 409: errorResponse('The version has no open review') };

/** Review requests on a version; each answers the version detail with its review state. */
export async function reviewsRoutes(app: App) {
  const reviews = app.services.trackReviews;

  app.post(
    route.path('/request'),
    route.options(session, 'request', {
      summary: 'Ask team members to review this version',
      description:
        `${SESSION_WRITERS} ${OWNER_ONLY} Every reviewer must be a member of the owning team (400 otherwise); ` +
        'one open review at a time (409: withdraw it first). Answers the version detail with the new ' +
        'review; sends the `review.requested` webhook event and notifies each reviewer.',
      body: ReviewRequestBody,
      response: { 200: VersionDetail, 409: errorResponse('An open review exists') },
    }),
    async (request) => reviews.request(...versionArgs(request), request.body.reviewerIds),
  );

  app.post(
    route.path('/withdraw'),
    route.options(session, 'withdraw', {
      summary: 'Withdraw the open review (its requester only)',
      description:
        `${SESSION_WRITERS} ${OWNER_ONLY} Anyone but the person who requested it gets 403; 409 when the ` +
        'version has no open review. Answers the version detail; sends the `review.withdrawn` webhook event.',
      response: { 200: VersionDetail, ...noOpenReview },
    }),
    async (request) => reviews.withdraw(...versionArgs(request)),
  );

  app.post(
    route.path('/listened'),
    route.options(session, 'listened', {
      summary: 'Mark that you listened to the version under review (reviewers only)',
      description:
        `${SESSION_WRITERS} ${OWNER_ONLY} Someone who is not a reviewer of the open review gets 403; 409 ` +
        'when the version has no open review. Idempotent: the first time is kept. Answers the version ' +
        "detail; the first mark is recorded in the team's activity as `review.listened` (no webhook).",
      response: { 200: VersionDetail, ...noOpenReview },
    }),
    async (request) => reviews.listened(...versionArgs(request)),
  );

  app.post(
    route.path('/decide'),
    route.options(session, 'decide', {
      summary: 'Approve or request changes (reviewers only)',
      description:
        'Any "changes_requested" closes the review with that state; once every reviewer approved, it closes ' +
        `approved. ${SESSION_WRITERS} ${OWNER_ONLY} Someone who is not a reviewer gets 403; 409 when the ` +
        'version has no open review. A reviewer may decide again while the review is open. Answers the ' +
        'version detail; sends the `review.decided` webhook event and notifies the requester. A person’s ' +
        'latest decision on the current version of the track counts towards the approvals a status may ' +
        'require; when an approval completes those of the next status of the board and that status has ' +
        '`autoAdvance`, the track moves there (`track.status_changed` with reason `approvals`).',
      body: ReviewDecisionBody,
      response: { 200: VersionDetail, ...noOpenReview },
    }),
    async (request) => reviews.decide(...versionArgs(request), request.body.status),
  );
}
