import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { errorResponse, NoContent } from '../../shared/schemas.ts';
import { RECIPIENT_MAILS_PER_TEAM } from './recipient-mail.ts';
import {
  ActivityQuery,
  AddRecipientBody,
  CreateShareLinkBody,
  PatchShareLinkBody,
  Recipient,
  RecipientParams,
  ShareLink,
  ShareLinkActivity,
  ShareLinkListQuery,
  ShareLinkPage,
  ShareLinkParams,
} from './share-links.schemas.ts';

const MAIL_BUDGET_RULE =
  `A team mails at most ${RECIPIENT_MAILS_PER_TEAM} recipients per hour (429 with Retry-After beyond, and ` +
  'nothing is made).';
const MAIL_BUDGET_SPENT = errorResponse(
  'rate_limited: the team mailed its recipients for this hour; Retry-After says when to try again',
);

const managed = { config: { auth: auth.keyOrSession('tracks:write'), extension: true } } as const;

const TEAM_WHO =
  'Owners and admins of the team (403 `forbidden` for its plain members), or an API key of that team with ' +
  '`tracks:write`; another team is 404.';
const WHO =
  "Owners and admins of the link's team (403 `forbidden` for its plain members), or an API key of that team " +
  'with `tracks:write`; a link of another team is 404, as a missing one.';
const REVOKED = errorResponse('link_revoked: the link was revoked; it can no longer be changed');

/** Review links: what a team shares with people without an account, and what those people did there. */
export async function shareLinksRoutes(app: App) {
  const links = app.services.shareLinks;

  app.post(
    '/api/v1/share-links',
    {
      ...managed,
      schema: {
        operationId: 'shareLinks.create',
        summary: 'Share a track, version, album or playlist through a review link',
        description:
          `${TEAM_WHO} Answers 201 with the link: its general URL and one per ` +
          'recipient, each mailed to its recipient (who shares what, until when, the link). Everything the ' +
          'target names must be owned by the team and live: a deleted track, one of another team or one merely ' +
          'shared with the team is 404 naming it. `allowStems` must be stems of versions the target shows, ' +
          '`expiresAt` must lie ahead and recipients must be distinct (400 otherwise). The password is stored ' +
          'as a hash only (`hasPassword`). ' +
          MAIL_BUDGET_RULE,
        body: CreateShareLinkBody,
        response: { 201: ShareLink, 429: MAIL_BUDGET_SPENT },
      },
    },
    async (request, reply) => reply.code(201).send(await links.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/share-links',
    {
      ...managed,
      schema: {
        operationId: 'shareLinks.list',
        summary: "A team's review links, newest first",
        description:
          `${TEAM_WHO} Filters: \`status\` (active, expired, revoked, gone), ` +
          '`trackId` (links showing the track: as a track, one of its versions or in a playlist) and `albumId`. ' +
          'Keyset pages. Changes nothing.',
        querystring: ShareLinkListQuery,
        response: { 200: ShareLinkPage },
      },
    },
    async (request) => links.list(principalOf(request), request.query),
  );

  app.get(
    '/api/v1/share-links/:id',
    {
      ...managed,
      schema: {
        operationId: 'shareLinks.get',
        summary: 'A review link with its recipients and counts',
        description: `${WHO} Changes nothing.`,
        params: ShareLinkParams,
        response: { 200: ShareLink },
      },
    },
    async (request) => links.get(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/share-links/:id',
    {
      ...managed,
      schema: {
        operationId: 'shareLinks.update',
        summary: 'Change what a review link says and allows (not what it shows)',
        description:
          `${WHO} Title, message, expiry (null: never), password (null removes it; any change ends the guest ` +
          'tokens unlocked before), downloads, stems, comments. A revoked link is 409 `link_revoked`; a stem ' +
          'not of a version the link shows, or an expiry not ahead, is 400.',
        params: ShareLinkParams,
        body: PatchShareLinkBody,
        response: { 200: ShareLink, 409: REVOKED },
      },
    },
    async (request) => links.update(principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/v1/share-links/:id/revoke',
    {
      ...managed,
      schema: {
        operationId: 'shareLinks.revoke',
        summary: 'Revoke a review link: none of its URLs opens any more',
        description: `${WHO} Answers the link with \`revokedAt\` set; revoking again changes nothing. Counts stay.`,
        params: ShareLinkParams,
        response: { 200: ShareLink },
      },
    },
    async (request) => links.revoke(principalOf(request), request.params.id),
  );

  app.post(
    '/api/v1/share-links/:id/recipients',
    {
      ...managed,
      schema: {
        operationId: 'shareLinks.recipients.add',
        summary: 'Add a recipient: a way in with its own URL and counts, mailed to them',
        description:
          `${WHO} Answers 201 with the recipient and mails them their URL. An address the link already has ` +
          '(in any case, revoked or not) is 409 `conflict`; a revoked link is 409 `link_revoked`. ' +
          MAIL_BUDGET_RULE,
        params: ShareLinkParams,
        body: AddRecipientBody,
        response: {
          201: Recipient,
          429: MAIL_BUDGET_SPENT,
          409: errorResponse(
            'conflict: the address is already a recipient; link_revoked: the link was revoked',
          ),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await links.addRecipient(principalOf(request), request.params.id, request.body.email)),
  );

  app.delete(
    '/api/v1/share-links/:id/recipients/:recipientId',
    {
      ...managed,
      schema: {
        operationId: 'shareLinks.recipients.revoke',
        summary: "Revoke a recipient's way in",
        description:
          `${WHO} Their URL stops opening at once; their counts stay in the link's stats. Revoking again ` +
          "answers 204 too; a recipient of another link (or the link's general way in) is 404.",
        params: RecipientParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await links.removeRecipient(principalOf(request), request.params.id, request.params.recipientId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/share-links/:id/activity',
    {
      ...managed,
      schema: {
        operationId: 'shareLinks.activity',
        summary: 'What guests did through a review link: totals, per way in, and events newest first',
        description:
          `${WHO} \`totals\` sums every way in (the general one and revoked ones included); \`recipients\` ` +
          'lists each way in with its counts (the general one first, with a null e-mail); `items` are the ' +
          'opens, plays, downloads and comments, filtered by `recipientId` and `kind`, in keyset pages. ' +
          'Changes nothing.',
        params: ShareLinkParams,
        querystring: ActivityQuery,
        response: { 200: ShareLinkActivity },
      },
    },
    async (request) => links.activity(principalOf(request), request.params.id, request.query),
  );
}
