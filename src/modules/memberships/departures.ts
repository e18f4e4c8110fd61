import type { Db } from '../../db/client.ts';
import { type RevokedKey, revokeKeysCreatedBy } from '../api-keys/api-keys.repository.ts';

/** Why a person's membership ended or was lowered. */
export type DepartureReason = 'left' | 'removed' | 'demoted' | 'account_deleted';

/** A person left a team, was removed from it, was demoted below admin, or deleted their account. */
export type TeamDeparture = { teamId: number; userId: string; reason: DepartureReason; at: Date };

/** The same for an organisation. */
export type OrganisationDeparture = {
  organisationId: number;
  userId: string;
  reason: DepartureReason;
  at: Date;
};

/** Team API keys that stopped working: revoked by an admin, or with their creator's rights. */
export type KeysRevoked = { keys: readonly RevokedKey[]; reason: DepartureReason | 'revoked'; at: Date };

/**
 * What ends with a membership, a role or a key. Every handler runs in the transaction that makes the change,
 * so a right and its reason end together. A departure with reason `demoted` means the person stays a member
 * without admin rights.
 */
export interface DepartureConsumer {
  teamDeparture?(tx: Db, event: TeamDeparture): Promise<void>;
  organisationDeparture?(tx: Db, event: OrganisationDeparture): Promise<void>;
  keysRevoked?(tx: Db, event: KeysRevoked): Promise<void>;
}

/**
 * The one place that ends the rights a membership, role or key gave. The modules that end memberships call
 * it; the modules holding such rights register a consumer where the app is composed, so neither side imports
 * the other.
 */
export class Departures {
  private readonly consumers: DepartureConsumer[] = [];

  register(consumer: DepartureConsumer): void {
    this.consumers.push(consumer);
  }

  /** Revokes the team API keys the person created for the team, then tells every consumer. */
  async teamDeparture(tx: Db, event: TeamDeparture): Promise<void> {
    const keys = await revokeKeysCreatedBy(tx, [event.userId], event.at, event.teamId);
    for (const consumer of this.consumers) await consumer.teamDeparture?.(tx, event);
    if (keys.length > 0) await this.keysRevoked(tx, { keys, reason: event.reason, at: event.at });
  }

  async organisationDeparture(tx: Db, event: OrganisationDeparture): Promise<void> {
    for (const consumer of this.consumers) await consumer.organisationDeparture?.(tx, event);
  }

  async keysRevoked(tx: Db, event: KeysRevoked): Promise<void> {
    if (event.keys.length === 0) return;
    for (const consumer of this.consumers) await consumer.keysRevoked?.(tx, event);
  }
}
