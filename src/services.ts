import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { createEventLog } from './event-log.composition.ts';
import { EventConsumers } from './events/event-consumers.ts';
import { defineEventRetention } from './events/event-retention.ts';
import { JobQueue, MEDIA_POOL } from './jobs/job-queue.ts';
import { defineMailDelivery } from './mail/delivery.ts';
import { Mailer } from './mail/mailer.ts';
import { createMailTransport } from './mail/transport.ts';
import { useFfmpeg } from './media/ffmpeg.ts';
import { createAiSearchService } from './modules/ai-search/ai-search.services.ts';
import { createAlbumsServices } from './modules/albums/albums.services.ts';
import { ApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { AccessTokens } from './modules/auth/access-tokens.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import {
  createAuthenticate,
  createPrincipalIsActive,
  requestRateLimits,
} from './modules/auth/authenticator.ts';
import { CurrentPassword } from './modules/auth/current-password.ts';
import { EmailVerification } from './modules/auth/email-verification.ts';
import { ExternalTokens } from './modules/auth/external-tokens.ts';
import { PasswordReset } from './modules/auth/password-reset.ts';
import { Passwords } from './modules/auth/passwords.ts';
import { createChatServices } from './modules/chat/chat.services.ts';
import { createContactsServices } from './modules/contacts/contacts.services.ts';
import { createFilesServices } from './modules/files/files.services.ts';
import { createFinancialsServices } from './modules/financials/financials.services.ts';
import { FlagsService } from './modules/flags/flags.service.ts';
import { InboxService } from './modules/inbox/inbox.service.ts';
import { createInterviewsServices } from './modules/interviews/interviews.services.ts';
import { Departures } from './modules/memberships/departures.ts';
import { createNotificationsService } from './modules/notifications/notifications.services.ts';
import { startPush } from './modules/notifications/push/push.ts';
import { Tracing } from './modules/operations/tracing.ts';
import { createOrganisationsServices } from './modules/organisations/organisations.services.ts';
import { SearchService } from './modules/search/search.service.ts';
import { sessionDepartures } from './modules/sessions/session-departures.ts';
import { createSessionsServices } from './modules/sessions/sessions.services.ts';
import { createShareLinkGuestServices } from './modules/share-links/guest/guest.services.ts';
import { shareLinkDepartures } from './modules/share-links/share-link-departures.ts';
import { createShareLinksService } from './modules/share-links/share-links.services.ts';
import { OverviewStatsService } from './modules/stats/overview-stats.service.ts';
import { StorageStatsService } from './modules/stats/storage-stats.service.ts';
import { StreamTickets } from './modules/stream-tickets/stream-tickets.service.ts';
import { inviteDepartures } from './modules/teams/invite-departures.ts';
import { createTeamFilesServices } from './modules/teams/team-files.services.ts';
import { createTeamsServices } from './modules/teams/teams.services.ts';
import { TestimonialsService } from './modules/testimonials/testimonials.service.ts';
import { createToursServices } from './modules/tours/tours.services.ts';
import { reviewDepartures } from './modules/tracks/reviews/review-departures.ts';
import { createTracksServices } from './modules/tracks/tracks.services.ts';
import { createUsersServices } from './modules/users/users.service.ts';
import { WalletService } from './modules/wallet/wallet.service.ts';
import { loggedAttemptsHold } from './modules/webhooks/deliveries.repository.ts';
import { webhookDepartures } from './modules/webhooks/endpoint-pauses.ts';
import { createWebhooksServices } from './modules/webhooks/webhooks.services.ts';
import { webhooksFromEvents } from './modules/webhooks/webhooks-from-events.ts';
import { WorldInventoryService } from './modules/world-inventory/world-inventory.service.ts';
import type { Clock } from './shared/clock.ts';
import { publicBaseUrl } from './shared/public-url.ts';
import { RateLimits } from './shared/rate-limits.ts';
import type { Secrets } from './shared/secrets.ts';

/** The long-lived services of one process, wired once from its configuration. */
export async function createServices({
  config,
  db,
  clock,
  secrets,
  listen,
  sql,
}: {
  config: Config;
  db: Db;
  clock: Clock;
  secrets: Secrets;
  /** The database's NOTIFY listener (chat's real-time events, new jobs, new events of the log). */
  listen: Database['listen'];
  /** PostgreSQL's client; none for the embedded database. */
  sql?: Database['sql'];
}) {
  useFfmpeg(config.musicTools.ffmpegPath);
  const limits = await RateLimits.connect(config.redisUrl, config.redisTimeoutMs);
  // Half the shutdown budget, so running jobs are handed back before the process is forced out.
  const jobs = new JobQueue(db, clock, {
    listen,
    pollIntervalMs: config.jobsPollIntervalMs,
    stopTimeoutMs: Math.floor(config.shutdownTimeoutMs / 2),
    // Audio work has slots of its own, so it never holds up deliveries and reminders.
    pools: { [MEDIA_POOL]: config.musicTools.concurrency },
  });
  const mailer = new Mailer(jobs, config.mail, publicBaseUrl(config));
  const tracing = config.web.tracing ? new Tracing(config.web.tracing) : undefined;
  const mailTransport = createMailTransport(config.mail);
  defineMailDelivery(db, clock, jobs, mailTransport);
  const accessTokens = new AccessTokens({
    secret: secrets.tokenSecret,
    issuer: config.auth.issuer,
    audience: config.auth.audience,
    ttlSeconds: config.auth.accessTokenTtlSeconds,
    clock,
  });
  const externalTokens = config.auth.oidc ? new ExternalTokens(db, clock, config.auth.oidc) : undefined;
  // The one log of changes, and what reads it: in the writing transaction, or after commit from a position.
  const events = createEventLog(clock);
  const eventConsumers = new EventConsumers(db, listen, clock, [webhooksFromEvents(clock)], {
    pollMs: config.jobsPollIntervalMs,
  });
  defineEventRetention(jobs, {
    db,
    clock,
    days: config.eventRetentionDays,
    holds: [loggedAttemptsHold],
    readers: eventConsumers.names,
  });
  // What ends with a membership, a role or a key: the modules holding such rights register below.
  const departures = new Departures();
  departures.register(webhookDepartures(events));
  departures.register(sessionDepartures);
  departures.register(inviteDepartures);
  departures.register(reviewDepartures);
  departures.register(shareLinkDepartures);
  const apiKeys = new ApiKeysService(db, clock, config.apiKeyPrefix, departures);
  const principalIsActive = createPrincipalIsActive({ db, clock, apiKeys });
  const passwords = new Passwords(config.auth.passwordHashing);
  const currentPassword = new CurrentPassword(passwords, limits);
  const emailVerification = new EmailVerification(db, clock, mailer, limits, currentPassword);
  const passwordReset = new PasswordReset(db, clock, mailer, limits, passwords, currentPassword, {
    maxFailures: config.auth.loginMaxFailures,
    windowSeconds: config.auth.loginFailureWindowSeconds,
  });
  const auth = new AuthService(db, clock, accessTokens, limits, config.auth, passwords, emailVerification);
  const fileServices = await createFilesServices({ db, clock, config, secrets, jobs, sql });
  const webhooks = createWebhooksServices({
    db,
    clock,
    secrets,
    events,
    jobs,
    listen,
    pollIntervalMs: config.jobsPollIntervalMs,
    deliveryRetentionDays: config.webhookDeliveryRetentionDays,
    allowedPrivateHosts: config.webhookAllowedPrivateHosts,
    stopTimeoutMs: Math.floor(config.shutdownTimeoutMs / 2),
  });
  const push = startPush({ db, clock, jobs, settings: config.push });
  const chat = createChatServices({ db, listen }, clock, events, jobs, config.chatStream, {
    files: fileServices.files,
    transcription: config.transcription,
    llm: config.aiSearchLlm,
  });
  return {
    chat,
    push,
    events,
    eventConsumers,
    webhooks,
    apiKeys,
    auth,
    emailVerification,
    passwordReset,
    accessTokens,
    limits,
    jobs,
    mailer,
    tracing,
    departures,
    ...createTeamsServices(db, clock, departures, events, { mailer, limits }),
    ...fileServices,
    ...createTeamFilesServices(db, clock, fileServices.files),
    storageStats: new StorageStatsService(db, fileServices.files),
    overviewStats: new OverviewStatsService(db, clock),
    testimonials: new TestimonialsService(db),
    wallet: new WalletService(db, clock, config.wallet),
    flags: new FlagsService(db, config.featureFlags),
    worldInventory: new WorldInventoryService(db),
    notifications: createNotificationsService(db, clock, jobs),
    inbox: new InboxService(db, clock),
    ...createTracksServices({
      db,
      clock,
      files: fileServices.files,
      events,
      jobs,
      retentionDays: config.trackRetentionDays,
      musicTools: config.musicTools,
    }),
    ...createAlbumsServices(db, clock, fileServices.files, events),
    ...createShareLinkGuestServices({
      db,
      clock,
      urlSigningSecret: secrets.urlSigningSecret,
      marks: fileServices.files.marks,
      events,
      limits,
      passwords,
    }),
    ...createFinancialsServices(db, clock, events),
    organisations: createOrganisationsServices(db, clock, events, fileServices.files, departures, {
      mailer,
      limits,
    }),
    ...createSessionsServices({
      db,
      clock,
      config,
      secrets,
      files: fileServices.files,
      events,
      mailer,
      limits,
    }),
    ...createContactsServices(db, clock, events, limits),
    ...createToursServices({ db, clock, config, files: fileServices.files, events }),
    ...createInterviewsServices(db, clock, events),
    users: createUsersServices(db, clock, jobs, departures),
    shareLinks: createShareLinksService({ db, clock, config, secrets, passwords, mailer, limits }),
    aiSearch: createAiSearchService(db, clock, config.aiSearchLlm),
    search: new SearchService(db, clock),
    authenticate: createAuthenticate({ db, clock, apiKeys, accessTokens, externalTokens }),
    principalIsActive,
    streamTickets: new StreamTickets(db, clock, principalIsActive),
    afterAuthenticate: requestRateLimits(limits, config.web.sessionRequestsPerMinute),
    /** Resolves once shared counters (Redis) take commands, or gave up connecting (memory then). */
    ready: () => limits.ready(),
    close: async () => {
      await Promise.all([jobs.stop(), webhooks.close(), chat.close(), eventConsumers.stop()]);
      await push.close();
      mailTransport.close();
      await tracing?.close();
      await limits.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
