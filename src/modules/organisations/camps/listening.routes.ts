import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, NoContent } from '../../../shared/schemas.ts';
import { SESSION_ONLY, session, sessionExtension } from '../route-auth.ts';
import { CampRefParams } from './camps.schemas.ts';
import {
  ListeningItem,
  ListeningItemParams,
  ListeningPage,
  ListeningQuery,
  ReorderListeningBody,
  SubmitTrackBody,
  UpdateListeningItemBody,
} from './listening.schemas.ts';

const READERS =
  `${SESSION_ONLY} Anyone who reads the camp's organisation (its members and the members of its teams); ` +
  'anyone else gets 404, as for an unknown camp.';
const MANAGED =
  `${SESSION_ONLY} Owners and admins of the camp's organisation (403 \`forbidden\` for others who read ` +
  'it; 404 for anyone else).';

/** The listening queue of a camp. */
export async function listeningRoutes(app: App) {
  const { listening } = app.services.organisations;

  app.get(
    '/api/v1/camps/:camp/listening',
    {
      ...session,
      schema: {
        operationId: 'camps.listening.list',
        summary: "The tracks submitted for the camp's listening session, in queue order",
        description:
          `${READERS} \`{camp}\` is the camp's id or slug. Played tracks keep their place (see ` +
          '`playedAt`); tracks deleted since they were submitted are left out. Keyset pages.',
        params: CampRefParams,
        querystring: ListeningQuery,
        response: { 200: ListeningPage },
      },
    },
    async (request) => listening.list(principalOf(request), request.params.camp, pageOf(request.query)),
  );

  app.post(
    '/api/v1/camps/:camp/listening',
    {
      ...sessionExtension,
      schema: {
        operationId: 'camps.listening.submit',
        summary: "Submit a track of one of the caller's teams: it joins the end of the queue",
        description:
          `${READERS} The track must be one the caller reads (404 otherwise); a track the caller's team ` +
          'only has shared with it is 403 `forbidden`; a track queued already, or a full queue (200 tracks), ' +
          "is 409 `conflict`. Records `camp.listening_submitted` in the event log of the track's team.",
        params: CampRefParams,
        body: SubmitTrackBody,
        response: {
          201: ListeningItem,
          409: errorResponse('The track is queued already, or the queue holds 200 tracks'),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await listening.submit(principalOf(request), request.params.camp, request.body.trackId)),
  );

  app.put(
    '/api/v1/camps/:camp/listening/order',
    {
      ...sessionExtension,
      schema: {
        operationId: 'camps.listening.reorder',
        summary: 'Put the queue in a new order (owners and admins of the organisation)',
        description:
          `${MANAGED} \`itemIds\` lists every item of the queue once; when it does not (the queue changed ` +
          'meanwhile: an item added or withdrawn), 409 `conflict`: reload and try again. Answers the whole ' +
          'queue in its new order (`nextCursor` null).',
        params: CampRefParams,
        body: ReorderListeningBody,
        response: {
          200: ListeningPage,
          409: errorResponse('itemIds is not exactly the items of the queue: reload it and try again'),
        },
      },
    },
    async (request) => listening.reorder(principalOf(request), request.params.camp, request.body.itemIds),
  );

  app.patch(
    '/api/v1/camps/:camp/listening/:itemId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'camps.listening.update',
        summary: 'Mark a queued track played, or unplayed again (owners and admins of the organisation)',
        description:
          `${MANAGED} \`played: true\` stamps \`playedAt\` now (again if it was played); false clears it. ` +
          'An item of another camp is 404. Records `camp.listening_played`.',
        params: ListeningItemParams,
        body: UpdateListeningItemBody,
        response: { 200: ListeningItem },
      },
    },
    async (request) =>
      listening.setPlayed(
        principalOf(request),
        request.params.camp,
        request.params.itemId,
        request.body.played,
      ),
  );

  app.delete(
    '/api/v1/camps/:camp/listening/:itemId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'camps.listening.withdraw',
        summary: 'Withdraw a track from the queue',
        description:
          `${SESSION_ONLY} By its submitter, owners and admins of its team, or owners and admins of the ` +
          'organisation (403 `forbidden` for anyone else who reads the camp; 404 for an item of another camp). ' +
          'The places of the items after it do not change. Records `camp.listening_withdrawn`.',
        params: ListeningItemParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await listening.remove(principalOf(request), request.params.camp, request.params.itemId);
      return reply.code(204).send(null);
    },
  );
}
