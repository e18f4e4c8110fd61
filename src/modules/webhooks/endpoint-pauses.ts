import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type WebhookPauseReason, webhookEndpoints } from '../../db/schema/index.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { DepartureConsumer, DepartureReason } from '../memberships/departures.ts';
import { type PausedEndpoint, pauseEndpoints } from './endpoints.repository.ts';

const PAUSE_REASON: Record<DepartureReason | 'revoked', WebhookPauseReason> = {
  left: 'registrant_left',
  removed: 'registrant_removed',
  demoted: 'registrant_demoted',
  account_deleted: 'registrant_account_deleted',
  revoked: 'key_revoked',
};

/**
 * One event per paused endpoint, of its team or organisation and without an actor (the service paused it): the
 * notification rules tell that team's or organisation's owners and admins.
 */
async function announce(
  tx: Db,
  events: EventLog,
  paused: readonly PausedEndpoint[],
  reason: WebhookPauseReason,
  registrantId: string | null,
): Promise<void> {
  await events.record(
    tx,
    paused.map((endpoint) => ({
      type: 'webhook.paused',
      subject: { type: 'webhook_endpoint', id: endpoint.id },
      ...(endpoint.teamId !== null
        ? { teamId: endpoint.teamId }
        : { organisationId: endpoint.organisationId }),
      payload: { reason, url: endpoint.url, registrantId },
    })),
  );
}

/**
 * Webhook endpoints keep a team's or an organisation's events flowing only while whoever registered them could
 * still register them: a departure (or demotion) of the person, or the revocation of the key, pauses them. A
 * paused endpoint is disabled (nothing is sent to it, pending attempts fail unsent) until an admin enables it.
 */
export const webhookDepartures = (events: EventLog): DepartureConsumer => ({
  teamDeparture: (tx, event) =>
    pauseRegisteredBy(tx, events, eq(webhookEndpoints.teamId, event.teamId), event.userId, event),
  organisationDeparture: (tx, event) =>
    pauseRegisteredBy(
      tx,
      events,
      eq(webhookEndpoints.organisationId, event.organisationId),
      event.userId,
      event,
    ),
  async keysRevoked(tx, event) {
    const reason = PAUSE_REASON.revoked;
    for (const teamId of new Set(event.keys.map((key) => key.teamId))) {
      const keyIds = event.keys.filter((key) => key.teamId === teamId).map((key) => key.id);
      const which = and(
        eq(webhookEndpoints.teamId, teamId),
        inArray(webhookEndpoints.createdByKeyId, keyIds),
      );
      await announce(tx, events, await pauseEndpoints(tx, which, reason, event.at), reason, null);
    }
  },
});

/** Pauses the endpoints of one team or organisation (`owned`) that the person registered. */
async function pauseRegisteredBy(
  tx: Db,
  events: EventLog,
  owned: SQL,
  userId: string,
  event: { reason: DepartureReason; at: Date },
): Promise<void> {
  const reason = PAUSE_REASON[event.reason];
  const which = and(owned, eq(webhookEndpoints.createdBy, userId));
  await announce(tx, events, await pauseEndpoints(tx, which, reason, event.at), reason, userId);
}
