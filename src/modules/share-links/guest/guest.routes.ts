import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { App } from '../../../app-types.ts';
import { auth } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, NoContent } from '../../../shared/schemas.ts';
import {
  GuestComment,
  GuestCommentBody,
  GuestCommentListQuery,
  GuestCommentPage,
  GuestTokenHeaders,
  PlayBody,
  SharedParams,
  SharedView,
  UnlockBody,
  UnlockResult,
} from './guest.schemas.ts';
import { GUEST_PLAY_LIMIT, OPEN_REPEAT_SECONDS, UNLOCK_LIMITS } from './guest.service.ts';
import { GUEST_COMMENT_LIMIT } from './guest-comments.service.ts';
import { GUEST_URL_SECONDS } from './guest-marks.ts';
import { GUEST_TOKEN_SECONDS } from './guest-tokens.ts';

const config: FastifyContextConfig = { auth: auth.anonymous, extension: true, pathToken: 'token' };

const WHO =
  'Anonymous: no bearer token; the token of the link’s URL is the authority (kept out of the request log). ' +
  'An unknown token, a revoked recipient, a revoked or expired link and a link whose track, version or album ' +
  'is gone all answer the same 404, checked afresh on every request.';
const PASSWORD =
  'A link with a password answers 403 password_required until the request carries the guest token of ' +
  'POST .../unlock in the Guest-Token header.';

const notFound = errorResponse('not_found: no live review link has this token');
const passwordRequired = errorResponse('password_required: the link has a password; unlock it first');

type Shared = Pick<FastifyRequest, 'headers'> & { params: { token: string } };

/** The link's token and the guest token of a request. */
function guestArgs(request: Shared) {
  const header = request.headers['guest-token'];
  return [request.params.token, Array.isArray(header) ? header[0] : header] as const;
}

/** The guest side of review links: anonymous routes under /api/v1/shared/{token}. */
export async function guestRoutes(app: App) {
  const guests = app.services.shareLinkGuests;
  const comments = app.services.shareLinkGuestComments;

  app.get(
    '/api/v1/shared/:token',
    {
      config,
      schema: {
        operationId: 'shareLinks.shared.get',
        summary: 'What a review link shows: its tracks, versions and stems with audio URLs',
        description:
          `${WHO} ${PASSWORD} Answers the link’s title, message, expiry and rights, and per track the ` +
          'version shown (a track link follows new versions: its final one, else its newest) with its ' +
          `waveform and signed audio URLs (living ${GUEST_URL_SECONDS / 60} minutes; a URL stops working at once ` +
          'when the link is revoked or no longer allows the file), and the stems the link shows. Each request ' +
          `counts an open of the way in (opens less than ${OPEN_REPEAT_SECONDS / 60} minutes apart count once); ` +
          'the first open ever sends the share_link.opened webhook event.',
        params: SharedParams,
        headers: GuestTokenHeaders,
        response: { 200: SharedView, 403: passwordRequired, 404: notFound },
      },
    },
    async (request) => guests.view(...guestArgs(request)),
  );

  app.post(
    '/api/v1/shared/:token/unlock',
    {
      config,
      schema: {
        operationId: 'shareLinks.shared.unlock',
        summary: 'Unlock a review link with its password: a guest token',
        description:
          `${WHO} Answers a guest token living ${GUEST_TOKEN_SECONDS / 60} minutes, for the Guest-Token header ` +
          'of the link’s other requests; changing or removing the link’s password ends it. A link without a ' +
          'password answers a token too (its requests ignore it). A wrong password is 403 invalid_password; ' +
          `attempts are limited to ${UNLOCK_LIMITS.perClient.points} per ${UNLOCK_LIMITS.perClient.seconds / 60} ` +
          `minutes per link and client and ${UNLOCK_LIMITS.perLink.points} per hour per link (429 with Retry-After).`,
        params: SharedParams,
        body: UnlockBody,
        response: {
          200: UnlockResult,
          403: errorResponse('invalid_password: the password is not right'),
          404: notFound,
          429: errorResponse('rate_limited: too many attempts; Retry-After says when to try again'),
        },
      },
    },
    async (request) => guests.unlock(request.params.token, request.body.password, request.ip),
  );

  app.get(
    '/api/v1/shared/:token/comments',
    {
      config,
      schema: {
        operationId: 'shareLinks.shared.comments.list',
        summary: 'The comments written through a review link, with the team’s replies',
        description:
          `${WHO} ${PASSWORD} Lists the comments guests wrote through any URL of this link and the replies ` +
          'to them, thread by thread (each comment followed by its replies), oldest first. Changes nothing.',
        params: SharedParams,
        headers: GuestTokenHeaders,
        querystring: GuestCommentListQuery,
        response: { 200: GuestCommentPage, 403: passwordRequired, 404: notFound },
      },
    },
    async (request) => comments.list(...guestArgs(request), pageOf(request.query)),
  );

  app.post(
    '/api/v1/shared/:token/comments',
    {
      config,
      schema: {
        operationId: 'shareLinks.shared.comments.create',
        summary: 'Comment on a version through a review link',
        description:
          `${WHO} ${PASSWORD} 403 comments_not_allowed when the link does not take comments. The comment ` +
          'becomes a comment of the version (at timestampSeconds) that the team sees with the guest’s name ' +
          '(`guest` of its comment answers), sends the comment.created webhook event (with `guest`) and ' +
          'notifies as a team comment does. versionId is required when the link shows more than one version ' +
          '(400 otherwise, and for a version the link does not show); timestampSeconds must not pass its ' +
          `duration when known. At most ${GUEST_COMMENT_LIMIT.points} comments per hour per link and client (429).`,
        params: SharedParams,
        headers: GuestTokenHeaders,
        body: GuestCommentBody,
        response: {
          201: GuestComment,
          403: errorResponse('password_required, or comments_not_allowed: the link does not take comments'),
          404: notFound,
          429: errorResponse('rate_limited: too many comments; Retry-After says when to try again'),
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return comments.create(...guestArgs(request), request.body, request.ip);
    },
  );

  app.post(
    '/api/v1/shared/:token/plays',
    {
      config,
      schema: {
        operationId: 'shareLinks.shared.plays.report',
        summary: 'Report listening to a version of a review link',
        description:
          `${WHO} ${PASSWORD} The player picks a playId per listening and reports it as it goes: the first ` +
          'report of a playId counts a play, later ones raise its seconds (never lower them; capped at the ' +
          'version’s duration). The team sees plays and seconds in the link’s stats. A version the link does ' +
          `not show is 400. At most ${GUEST_PLAY_LIMIT.points} reports per hour per link and client (429).`,
        params: SharedParams,
        headers: GuestTokenHeaders,
        body: PlayBody,
        response: {
          204: NoContent,
          403: passwordRequired,
          404: notFound,
          429: errorResponse('rate_limited: too many reports; Retry-After says when to try again'),
        },
      },
    },
    async (request, reply) => {
      await guests.play(...guestArgs(request), request.body, request.ip);
      return reply.code(204).send(null);
    },
  );
}
