import type { FastifyRequest } from 'fastify';
import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { errorResponse, NoContent } from '../../shared/schemas.ts';
import { LoginBody, Me, RefreshBody, SignupBody, TokenResponse } from './auth.schemas.ts';
import type { ClientInfo } from './auth.service.ts';
import { passwordResetRoutes } from './password-reset.routes.ts';
import { verifyEmailRoutes } from './verify-email.routes.ts';

const client = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

export async function authRoutes(app: App) {
  const service = app.services.auth;
  await app.register(verifyEmailRoutes);
  await app.register(passwordResetRoutes);

  if (app.deps.config.auth.signupEnabled) {
    app.post(
      '/api/v1/auth/signup',
      {
        config: { auth: auth.anonymous, extension: true },
        schema: {
          operationId: 'auth.signup',
          summary: 'Create an account and sign in',
          description:
            'Anonymous (no token); offered only while sign-up is enabled (SIGNUP_ENABLED, on by default). ' +
            'Creates the account and its first session, and answers 201 with a token pair. ' +
            'E-mails are stored normalised (NFKC, case-folded: `ADA@Example.com` is `ada@example.com`) and are ' +
            'unique in that form (409). Passwords have 8 to 256 characters; common ' +
            'passwords, simple runs such as 12345678, fewer than four different characters and the ' +
            'e-mail address itself are refused with 400 validation_failed. A `/verify-email?token=` link is ' +
            'mailed to the address (see POST /auth/verify-email); until it is opened the account’s ' +
            '`emailVerified` is false.',
          body: SignupBody,
          response: {
            201: TokenResponse,
            409: errorResponse('conflict: an account with this e-mail address already exists'),
          },
        },
      },
      async (request, reply) => reply.code(201).send(await service.signup(request.body, client(request))),
    );
  }

  app.post(
    '/api/v1/auth/login',
    {
      config: { auth: auth.anonymous },
      schema: {
        operationId: 'auth.login',
        summary: 'Exchange e-mail and password for a token pair',
        description:
          'Anonymous (no token). Opens a session and answers a token pair. ' +
          'Wrong password and unknown e-mail answer the same 401. The e-mail is matched in its normalised form ' +
          '(NFKC, case-folded), so case and Unicode variants of an address name one account. Failures are ' +
          'counted per client address and per normalised e-mail within LOGIN_FAILURE_WINDOW_SECONDS; past ' +
          'LOGIN_MAX_FAILURES for the e-mail (four times that for the address) the answer is 429 with ' +
          'Retry-After, also for the right password. A successful sign-in uses up neither budget and starts ' +
          "the e-mail's count over. Behind a reverse proxy the client address is taken from X-Forwarded-For " +
          'only when TRUST_PROXY says which proxies to believe.',
        body: LoginBody,
        response: {
          200: TokenResponse,
          401: errorResponse(
            'Wrong e-mail or password, or an account scheduled for deletion (the same answer for each)',
          ),
          429: errorResponse(
            'rate_limited: too many failed sign-ins for the e-mail or the client address; see Retry-After',
          ),
        },
      },
    },
    async (request) => service.login(request.body, client(request)),
  );

  app.post(
    '/api/v1/auth/refresh',
    {
      config: { auth: auth.anonymous },
      schema: {
        operationId: 'auth.refresh',
        summary: 'Rotate a refresh token into a new token pair',
        description:
          'Anonymous (no bearer token: the refresh token in the body is the credential). ' +
          'Each refresh token works once; presenting a spent one ends the whole session (401). A rotation stamps the ' +
          "session's `lastUsedAt` and client address (see GET /user/sessions).",
        body: RefreshBody,
        response: {
          200: TokenResponse,
          401: errorResponse(
            'The refresh token is unknown, expired, revoked or already used (which ends its session), or the ' +
              'account is scheduled for deletion',
          ),
        },
      },
    },
    async (request) => service.refresh(request.body.refresh_token, client(request)),
  );

  app.post(
    '/api/v1/auth/logout',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'auth.logout',
        summary: 'End the session: its access and refresh tokens stop working at once',
        description:
          'Session tokens only (an API key gets 403 `session_required`). Ends the session of the calling token ' +
          'on every server: its access and refresh tokens get 401 from then on. Other sessions of the user ' +
          'stay (see POST /user/sessions/end-others).',
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await service.logout(principalOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/auth/me',
    {
      config: { auth: auth.session, deferSessionCheck: true },
      schema: {
        operationId: 'auth.me',
        summary: 'The signed-in user and their teams with roles',
        description:
          'Session tokens only (an API key gets 403 `session_required`). Changes nothing for a known user. ' +
          'With an external OpenID Connect provider configured, its tokens work as sessions. The first token ' +
          'of a subject provisions its user (or links the account with that e-mail, when not linked yet) only ' +
          'when it carries an e-mail with `email_verified: true`; otherwise it gets 401 and nothing is stored. ' +
          'Once provisioned, the user is known by the subject and later tokens need no e-mail.',
        response: { 200: Me },
      },
    },
    async (request) => service.me(principalOf(request)),
  );
}
