import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type WebhookPauseReason, webhookEndpoints } from '../../db/schema/index.ts';
import { recordActivity } from '../activity/activity.ts';
import type { DepartureConsumer, DepartureReason } from '../memberships/departures.ts';
import { recordOrganisationActivity } from '../organisations/activity.ts';
import { type PausedEndpoint, pauseEndpoints } from './endpoints.repository.ts';

const PAUSE_REASON: Record<DepartureReason | 'revoked', WebhookPauseReason> = {
  left: 'registrant_left',
  removed: 'registrant_removed',
  demoted: 'registrant_demoted',
  account_deleted: 'registrant_account_deleted',
  revoked: 'key_revoked',
};

const SYSTEM = { actorUserId: null, actorKeyId: null };

/** Tells the owners and admins of each paused endpoint's team or organisation (see the notification rules). */
async function announce(
  tx: Db,
  paused: readonly PausedEndpoint[],
  reason: WebhookPauseReason,
  registrantId: string | null,
): Promise<void> {
  for (const endpoint of paused) {
    const entry = {
      action: 'webhook.paused',
      subjectType: 'webhook_endpoint',
      subjectId: endpoint.id,
      data: { reason, url: endpoint.url, registrantId },
    };
    if (endpoint.teamId !== null) await recordActivity(tx, { ...SYSTEM, teamId: endpoint.teamId, ...entry });
    else await recordOrganisationActivity(tx, null, endpoint.organisationId as number, entry);
  }
}

/**
 * Webhook endpoints keep a team's or an organisation's events flowing only while whoever registered them could
 * still register them: a departure (or demotion) of the person, or the revocation of the key, pauses them. A
 * paused endpoint is disabled (nothing is sent to it, pending attempts fail unsent) until an admin enables it.
 */
export const webhookDepartures: DepartureConsumer = {
  teamDeparture: (tx, event) =>
    pauseRegisteredBy(tx, eq(webhookEndpoints.teamId, event.teamId), event.userId, event),
  organisationDeparture: (tx, event) =>
    pauseRegisteredBy(tx, eq(webhookEndpoints.organisationId, event.organisationId), event.userId, event),
  async keysRevoked(tx, event) {
    const reason = PAUSE_REASON.revoked;
    for (const teamId of new Set(event.keys.map((key) => key.teamId))) {
      const keyIds = event.keys.filter((key) => key.teamId === teamId).map((key) => key.id);
      const which = and(
        eq(webhookEndpoints.teamId, teamId),
        inArray(webhookEndpoints.createdByKeyId, keyIds),
      );
      await announce(tx, await pauseEndpoints(tx, which, reason, event.at), reason, null);
    }
  },
};

/** Pauses the endpoints of one team or organisation (`owned`) that the person registered. */
async function pauseRegisteredBy(
  tx: Db,
  owned: SQL,
  userId: string,
  event: { reason: DepartureReason; at: Date },
): Promise<void> {
  const reason = PAUSE_REASON[event.reason];
  const which = and(owned, eq(webhookEndpoints.createdBy, userId));
  await announce(tx, await pauseEndpoints(tx, which, reason, event.at), reason, userId);
}
