import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { App, AppDeps } from './app-types.ts';
import { aiSearchRoutes } from './modules/ai-search/ai-search.routes.ts';
import { albumsModuleRoutes } from './modules/albums/routes.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { appVersionRoutes } from './modules/app-version/app-version.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { chatModuleRoutes } from './modules/chat/routes.ts';
import { contactsModuleRoutes } from './modules/contacts/routes.ts';
import { filesRoutes } from './modules/files/files.routes.ts';
import { financialsModuleRoutes } from './modules/financials/routes.ts';
import { flagsRoutes } from './modules/flags/flags.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { inboxRoutes } from './modules/inbox/inbox.routes.ts';
import { interviewsModuleRoutes } from './modules/interviews/routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { operationsRoutes } from './modules/operations/operations.routes.ts';
import { organisationsModuleRoutes } from './modules/organisations/routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { sessionsModuleRoutes } from './modules/sessions/routes.ts';
import { guestRoutes } from './modules/share-links/guest/guest.routes.ts';
import { shareLinksRoutes } from './modules/share-links/share-links.routes.ts';
import { overviewStatsRoutes } from './modules/stats/overview-stats.routes.ts';
import { storageStatsRoutes } from './modules/stats/storage-stats.routes.ts';
import { teamsRoutes } from './modules/teams/teams.routes.ts';
import { testimonialsRoutes } from './modules/testimonials/testimonials.routes.ts';
import { toursModuleRoutes } from './modules/tours/routes.ts';
import { tracksModuleRoutes } from './modules/tracks/routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { walletRoutes } from './modules/wallet/wallet.routes.ts';
import { webhooksOpenApi } from './modules/webhooks/webhooks.openapi.ts';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.ts';
import { worldInventoryRoutes } from './modules/world-inventory/world-inventory.routes.ts';
import { AllowedMethods } from './plugins/allowed-methods.ts';
import { authPlugin } from './plugins/auth.ts';
import { registerCors, registerSecurityHeaders, securityHeadersFor } from './plugins/browsers.ts';
import { cursorBindingPlugin } from './plugins/cursor-binding.ts';
import { drainOnClose } from './plugins/drain-on-close.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { parseJsonBodies } from './plugins/json-bodies.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { PathTokens } from './plugins/path-tokens.ts';
import { loggerOptions } from './plugins/request-log.ts';
import { cachedSerializers } from './plugins/serializers.ts';
import { traceContext } from './plugins/trace-context.ts';
import { clientErrorHandler, frameworkErrorsFor } from './plugins/transport-errors.ts';
import { validationPlugin } from './plugins/validation.ts';
import { createServices } from './services.ts';
import { systemClock } from './shared/clock.ts';
import { publicBaseUrl } from './shared/public-url.ts';
import { fastifyTrustProxy } from './shared/trust-proxy.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type BuildOptions = Omit<AppDeps, 'clock'> & Partial<Pick<AppDeps, 'clock'>> & { logger?: boolean };

/** Builds the Fastify application without listening. */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { logger, ...given } = options;
  const deps: AppDeps = { clock: systemClock, ...given };
  const { config } = deps;
  const services = await createServices({
    config,
    db: deps.database.db,
    clock: deps.clock,
    secrets: deps.secrets,
    listen: deps.database.listen,
    sql: deps.database.sql,
  });
  const pathTokens = new PathTokens();
  const traces = traceContext(services.tracing);
  const allowedMethods = new AllowedMethods();
  const app = Fastify({
    logger: logger === false ? false : loggerOptions(config.logLevel, pathTokens),
    bodyLimit: config.bodyLimit,
    // `request.ip` is the client behind the trusted proxies; with none trusted, the socket's peer.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    schemaController: cachedSerializers,
    frameworkErrors: frameworkErrorsFor(services.authenticate, securityHeadersFor(config.publicUrl)),
    clientErrorHandler,
    childLoggerFactory: traces.childLoggerFactory,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('deps', deps);
  app.decorate('services', services);
  app.decorate('pathTokens', pathTokens);
  app.addHook('onRoute', (route) => {
    pathTokens.add(route);
    allowedMethods.add(route);
  });
  app.addHook('onClose', services.close);
  app.addHook('onReady', async () => {
    await services.ready();
  });
  // Only JSON bodies are accepted; every other content type gets 415.
  app.removeContentTypeParser(['text/plain']);
  parseJsonBodies(app);
  drainOnClose(app);
  // Set as the request arrives (a synchronous hook, no promise per request); every answer carries it.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    traces.answerTraceparent(request, reply);
    done();
  });
  if (services.tracing)
    app.addHook('onResponse', (request, reply, done) => {
      traces.endSpan(request, reply);
      done();
    });

  await registerSecurityHeaders(app, config.publicUrl);
  // Before the auth plugin: preflights are answered without a token (see registerCors).
  await registerCors(app, config.web.cors);
  await app.register(authPlugin, {
    authenticate: services.authenticate,
    principalIsActive: services.principalIsActive,
    afterAuthenticate: services.afterAuthenticate,
    redeemTicket: (ticket, stream) => services.streamTickets.redeem(ticket, stream),
  });
  await app.register(errorsPlugin, { allowedMethods });
  await app.register(validationPlugin);
  await app.register(cursorBindingPlugin);
  await app.register(idempotencyPlugin, { db: deps.database.db, clock: deps.clock, jobs: services.jobs });
  await app.register(openApiPlugin, {
    version: config.version,
    license: config.license,
    serverUrl: publicBaseUrl(config),
    webhooks: webhooksOpenApi(),
  });

  await app.register(healthRoutes);
  await app.register(operationsRoutes);
  await app.register(authRoutes);
  await app.register(apiKeysRoutes);
  await app.register(teamsRoutes);
  await app.register(filesRoutes);
  await app.register(storageStatsRoutes);
  await app.register(overviewStatsRoutes);
  await app.register(tracksModuleRoutes);
  await app.register(albumsModuleRoutes);
  await app.register(shareLinksRoutes);
  await app.register(guestRoutes);
  await app.register(financialsModuleRoutes);
  await app.register(chatModuleRoutes);
  await app.register(organisationsModuleRoutes);
  await app.register(sessionsModuleRoutes);
  await app.register(contactsModuleRoutes);
  await app.register(toursModuleRoutes);
  await app.register(interviewsModuleRoutes);
  await app.register(usersRoutes);
  await app.register(aiSearchRoutes);
  await app.register(searchRoutes);
  await app.register(webhooksRoutes);
  await app.register(testimonialsRoutes);
  await app.register(appVersionRoutes);
  await app.register(walletRoutes);
  await app.register(flagsRoutes);
  await app.register(worldInventoryRoutes);
  await app.register(notificationsRoutes);
  await app.register(inboxRoutes);

  return app;
}
