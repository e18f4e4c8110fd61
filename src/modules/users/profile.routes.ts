import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { EmptyBody } from '../../shared/schemas.ts';
import { acceptEmptyJsonBody } from './empty-body.ts';
import {
  AppOpened,
  DefaultTeamBody,
  IdentityList,
  IdentityListQuery,
  Profile,
  UpdateProfileBody,
  ZeroDataRetention,
} from './users.schemas.ts';

const session = { config: { auth: auth.session } } as const;

export async function profileRoutes(app: App) {
  const profile = app.services.users.profile;

  app.get(
    '/api/v1/user/profile',
    {
      ...session,
      schema: {
        operationId: 'user.profile.get',
        summary: 'The signed-in user’s profile',
        description:
          "Session tokens only (an API key gets 403 `session_required`). The caller's own account: e-mail, " +
          'display name, default team and zero-data-retention flag. Changes nothing.',
        response: { 200: Profile },
      },
    },
    async (request) => profile.get(principalOf(request)),
  );

  app.patch(
    '/api/v1/user/profile',
    {
      config: { auth: auth.session, extension: true },
      schema: {
        operationId: 'user.profile.update',
        summary: 'Set the signed-in user’s display name',
        description:
          'Session tokens only. Sets (or with null clears) the display name other members see in member lists, ' +
          'comments and chat; answers the whole profile.',
        body: UpdateProfileBody,
        response: { 200: Profile },
      },
    },
    async (request) => profile.update(principalOf(request), request.body),
  );

  app.get(
    '/api/v1/user/identities',
    {
      ...session,
      schema: {
        operationId: 'user.identities.list',
        summary: 'How the user signs in: password and/or an OpenID Connect identity',
        description:
          'Session tokens only. One entry per sign-in method, so the list is always complete. `createdAt` is ' +
          'when the account was created. Changes nothing.',
        querystring: IdentityListQuery,
        response: { 200: IdentityList },
      },
    },
    async (request) => profile.identities(principalOf(request), pageOf(request.query)),
  );

  app.patch(
    '/api/v1/user/default-team',
    {
      ...session,
      schema: {
        operationId: 'user.defaultTeam.set',
        summary: 'Choose the team the apps open by default',
        description:
          'Session tokens only. The team must be one the user belongs to (else 404); null clears the choice. ' +
          'Should the user leave it later, the profile shows `defaultTeamId: null`. Answers the whole profile.',
        body: DefaultTeamBody,
        response: { 200: Profile },
      },
    },
    async (request) => profile.setDefaultTeam(principalOf(request), request.body.teamId),
  );

  app.patch(
    '/api/v1/user/zero-data-retention',
    {
      ...session,
      schema: {
        operationId: 'user.zeroDataRetention.set',
        summary: 'Turn zero data retention on or off for the user',
        description: "Session tokens only. Sets the flag on the caller's account and answers its new value.",
        body: ZeroDataRetention,
        response: { 200: ZeroDataRetention },
      },
    },
    async (request) => profile.setZeroDataRetention(principalOf(request), request.body.enabled),
  );

  await app.register(async (scope: App) => {
    acceptEmptyJsonBody(scope);
    scope.post(
      '/api/v1/user/app-opened',
      {
        ...session,
        schema: {
          operationId: 'user.appOpened',
          summary: 'Record that the user opened an app',
          description:
            "Session tokens only. Stamps the account's last app-open time with the server's clock and " +
            'answers it. Takes no body: send none (with or without a JSON content type) or `{}`.',
          body: EmptyBody,
          response: { 200: AppOpened },
        },
      },
      async (request) => profile.appOpened(principalOf(request)),
    );
  });
}
