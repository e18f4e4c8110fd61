import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { acceptOlderNames } from '../../../shared/older-names.ts';
import { errorResponse } from '../../../shared/schemas.ts';
import { lookup, sessionRead } from '../route-auth.ts';
import { PlatformUsersAnswer, PlatformUsersBody } from './platform-users.schemas.ts';
import { LOOKUPS_PER_HOUR } from './platform-users.service.ts';
import { Together, TogetherQuery } from './together.schemas.ts';

/** Contacts as people on the platform: which addresses are users, and what the caller shares with one. */
export async function contactPeopleRoutes(app: App) {
  const { platformUsers, together } = app.services;

  app.post(
    '/api/v1/contacts/platform-users',
    {
      ...lookup,
      ...acceptOlderNames,
      schema: {
        operationId: 'contacts.platformUsers',
        summary: 'Which e-mail addresses belong to platform users you may know',
        description:
          'Any member of teamId (or team_id, its older name) (session), or an API key of that team (404 otherwise). ' +
          'A user counts when they share a team with the caller (for an API key: with its team) or allow ' +
          'discovery (user preference discoverable), and only by a verified address (anyone may sign up with ' +
          'any address). Unknown or unverified addresses and hidden users answer alike. Reads ' +
          `only: an API key needs no write scope. Each caller may look up ${LOOKUPS_PER_HOUR} distinct ` +
          'addresses an hour (a user across their sessions, a team across its keys); past that: 429 with ' +
          'Retry-After, and the refused request counts nothing.',
        body: PlatformUsersBody,
        response: {
          200: PlatformUsersAnswer,
          429: errorResponse(
            `Over ${LOOKUPS_PER_HOUR} distinct addresses this hour (rate_limited, with Retry-After), or the service's own rate limit`,
          ),
        },
      },
    },
    async (request) => platformUsers.lookup(principalOf(request), request.body),
  );

  app.get(
    '/api/v1/contacts/together',
    {
      ...sessionRead,
      schema: {
        operationId: 'contacts.together',
        summary: 'What you share with a person',
        description:
          'Session only (an API key gets 403 `session_required`). Reads only. ' +
          'Name the person by exactly one of contactId (a contact of one of your teams, linked to a user), ' +
          'userId or email (a user who shares a team with you or allows discovery; an e-mail names a user only ' +
          'once verified); anyone else is 404; none or several of them is 400. ' +
          'Answers the teams you are both members of and, per area, what you share: tracks you both worked ' +
          'on, studio sessions and chat threads you both see.',
        querystring: TogetherQuery,
        response: { 200: Together },
      },
    },
    async (request) => together.together(principalOf(request), request.query),
  );
}
