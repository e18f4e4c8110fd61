import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { errorResponse } from '../../shared/schemas.ts';
import { GoogleSaveLink, WalletIdentityOffer, WalletPassParams, WalletPassQuery } from './wallet.schemas.ts';

const anyToken = { config: { auth: auth.anyToken } } as const;

/** Identity passes for Apple Wallet and Google Wallet. */
export async function walletRoutes(app: App) {
  const wallet = app.services.wallet;

  app.get(
    '/api/v1/wallet/identity',
    {
      ...anyToken,
      schema: {
        operationId: 'wallet.identity.offer',
        summary: 'Which wallets can hold an identity pass, and a one-time token to fetch one',
        description:
          'Any valid token: a session, or an API key (no scope). Stores a new one-time token; changes nothing ' +
          'else. ' +
          'The token is valid 5 minutes, works once, and only for the caller who asked for it (the same user, ' +
          'or the same API key: a key gets a pass of its team). Each call gives a new token.',
        response: { 200: WalletIdentityOffer },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return wallet.issue(principalOf(request));
    },
  );

  app.get(
    '/api/v1/wallet/identity/:platform',
    {
      ...anyToken,
      // A HEAD (a link preview, a prefetch) would use the one-time token up without delivering the pass.
      exposeHeadRoute: false,
      schema: {
        operationId: 'wallet.identity.pass',
        summary: 'The identity pass: an Apple Wallet .pkpass, or a Google Wallet save link',
        description:
          'Any valid token: the same session user or API key that asked for the one-time token. ' +
          'Uses up the one-time token of GET /api/v1/wallet/identity. The token is checked first: an unknown, ' +
          "expired or used token, or another caller's, is 403 wallet_token_invalid whatever is configured. " +
          'Then a platform this server has no signing setup for is 503 wallet_unavailable (the token stays ' +
          'usable). apple answers the signed pass as application/vnd.apple.pkpass; google answers {saveUrl}.',
        params: WalletPassParams,
        querystring: WalletPassQuery,
        response: {
          200: {
            description: 'The pass (apple) or the save link (google)',
            content: {
              'application/vnd.apple.pkpass': { schema: { type: 'string', format: 'binary' } },
              'application/json': { schema: GoogleSaveLink },
            },
          },
          403: errorResponse('wallet_token_invalid (or another 403 of the auth class)'),
          503: errorResponse('wallet_unavailable, or the database is unavailable'),
        },
      },
    },
    async (request, reply) => {
      const pass = await wallet.pass(principalOf(request), request.params.platform, request.query.token);
      reply.header('cache-control', 'no-store');
      if (pass.platform === 'google') return { saveUrl: pass.saveUrl };
      return reply
        .header('content-type', 'application/vnd.apple.pkpass')
        .header('content-disposition', 'attachment; filename="identity.pkpass"')
        .send(pass.pkpass);
    },
  );
}
