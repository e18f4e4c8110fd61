import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { NoContent } from '../../shared/schemas.ts';
import { LoginBody, Me, RefreshBody, SignupBody, TokenResponse } from './auth.schemas.ts';
import type { ClientInfo } from './auth.service.ts';

const client = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

export async function authRoutes(app: App) {
  const service = app.services.auth;

  if (app.deps.config.auth.signupEnabled) {
    app.post(
      '/api/v1/auth/signup',
      {
        config: { auth: auth.anonymous, extension: true },
        schema: {
          operationId: 'auth.signup',
          summary: 'Create an account and sign in',
          description:
            'E-mails are unique regardless of case (409). Passwords have 8 to 256 characters; common ' +
            'passwords, simple runs such as 12345678, fewer than four different characters and the ' +
            'e-mail address itself are refused with 400 validation_failed.',
          body: SignupBody,
          response: { 201: TokenResponse },
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
        description: 'Wrong password and unknown e-mail answer the same 401; repeated failures answer 429.',
        body: LoginBody,
        response: { 200: TokenResponse },
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
        description: 'Each refresh token works once; presenting a spent one ends the whole session.',
        body: RefreshBody,
        response: { 200: TokenResponse },
      },
    },
    async (request) => service.refresh(request.body.refresh_token),
  );

  app.post(
    '/api/v1/auth/logout',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'auth.logout',
        summary: 'End the session: its access and refresh tokens stop working at once',
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
      config: { auth: auth.session },
      schema: {
        operationId: 'auth.me',
        summary: 'The signed-in user and their teams with roles',
        response: { 200: Me },
      },
    },
    async (request) => service.me(principalOf(request)),
  );
}
