import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { countedPageOf } from '../../shared/pagination.ts';
import { Inbox, InboxQuery } from './inbox.schemas.ts';

/** `GET /api/v1/inbox/`: what waits for the caller's action. */
export async function inboxRoutes(app: App) {
  const inbox = app.services.inbox;

  app.get(
    '/api/v1/inbox/',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'inbox.get',
        summary: 'What waits for your action across your teams',
        description:
          'Session token only (an API key gets 403 `session_required`). ' +
          'Open team invites to your address, invitations to organisations (to you, or to your address), ' +
          'reviews waiting for your decision, studio session invitations you ' +
          'have not answered (sessions not over), your follow-up tasks that are due, and chat messages ' +
          'mentioning you after your read marker. Worked out at each call, so an item leaves as soon as it is ' +
          'acted on; items of teams you have left do not show. Each item carries the calls that act on it. ' +
          'What was sent to an e-mail address alone (team invites, organisation and session invitations to ' +
          'it) is listed only once the address is verified; an account made by password sign-up is not, ' +
          'and accepts such an invite with the token mailed to it. Invite actions name the invite by id ' +
          '(`/api/v1/user/invites/{id}/accept`, `/api/v1/user/organisation-invitations/{id}/accept`): ' +
          'tokens are kept hashed and never listed. Keyset pages like every list (limit, cursor); `counts` ' +
          'are those of the whole inbox on every page.',
        querystring: InboxQuery,
        response: { 200: Inbox },
      },
    },
    async (request) => inbox.get(principalOf(request), countedPageOf(request.query)),
  );
}
