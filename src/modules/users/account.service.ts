import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { AppError, errors } from '../../shared/errors.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import { findUserById, revokeUserSessions } from '../auth/auth.repository.ts';
import type { Departures } from '../memberships/departures.ts';
import * as repo from './account.repository.ts';
import { deletePushTokensOf } from './push-tokens.repository.ts';
import { ACCOUNT_DELETION_PHRASE } from './users.schemas.ts';

/** Days between a deletion request and the purge of the account's data. */
export const PURGE_AFTER_DAYS = 30;
const DAY_MS = 86_400_000;

export type DeletionStatus = {
  status: 'active' | 'scheduled';
  requestedAt: Date | null;
  purgeAfter: Date | null;
};

export function deletionStatus(requestedAt: Date | null): DeletionStatus {
  if (!requestedAt) return { status: 'active', requestedAt: null, purgeAfter: null };
  return {
    status: 'scheduled',
    requestedAt,
    purgeAfter: new Date(requestedAt.getTime() + PURGE_AFTER_DAYS * DAY_MS),
  };
}

/** 409 naming the teams and organisations whose ownership must be handed over (or that must be deleted) first. */
function soleOwnerConflict(teamIds: number[], organisationIds: number[]): AppError {
  const named = [
    ...(teamIds.length > 0 ? [`teams that have other members (${teamIds.join(', ')})`] : []),
    ...(organisationIds.length > 0
      ? [`organisations that have other members or teams (${organisationIds.join(', ')})`]
      : []),
  ];
  const base = errors.conflict(
    `You are the only owner of ${named.join(' and of ')}; make another member owner or delete them first`,
  );
  return new AppError(base.statusCode, base.code, base.message, [
    ...teamIds.map((id) => ({ path: `/teams/${id}`, message: 'has other members and no other owner' })),
    ...organisationIds.map((id) => ({
      path: `/organisations/${id}`,
      message: 'has other members or teams and no other owner',
    })),
  ]);
}

/** Account deletion: the request (which ends every session at once) and its status. */
export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly departures: Departures,
  ) {}

  async status(principal: Principal): Promise<DeletionStatus> {
    const user = await findUserById(this.db, sessionUserId(principal));
    if (!user) throw errors.unauthorized();
    return deletionStatus(user.deletionRequestedAt);
  }

  /**
   * Marks the account for deletion, leaves every team (deleting teams the user is alone in), revokes the
   * team API keys the user created, forgets the user's push tokens and revokes all sessions, in one
   * transaction. Leaves every organisation too, deleting those the user is alone in that hold no team.
   * Refused while the user is the only owner of a team with other members, or of an organisation with
   * other members or teams.
   */
  async requestDeletion(principal: Principal, confirmation: string): Promise<DeletionStatus> {
    const userId = sessionUserId(principal);
    if (confirmation !== ACCOUNT_DELETION_PHRASE) {
      throw errors.validation(
        [{ path: '/body/confirmation', message: `must be exactly "${ACCOUNT_DELETION_PHRASE}"` }],
        `To delete your account, send confirmation "${ACCOUNT_DELETION_PHRASE}"`,
      );
    }
    const now = this.clock.now();
    try {
      const requestedAt = await this.db.transaction(async (tx) => {
        const user = await repo.lockUser(tx, userId);
        if (!user) throw errors.unauthorized();
        if (user.deletionRequestedAt) return user.deletionRequestedAt;
        const teams = await repo.lockTeamsOf(tx, userId);
        const organisations = await repo.lockOrganisationsOf(tx, userId);
        const blocking = teams.filter((t) => t.isOwner && t.owners === 1 && t.members > 1);
        const blockingOrganisations = organisations.filter(
          (o) => o.isOwner && o.owners === 1 && (o.members > 1 || o.teams > 0),
        );
        if (blocking.length > 0 || blockingOrganisations.length > 0)
          throw soleOwnerConflict(
            blocking.map((t) => t.teamId),
            blockingOrganisations.map((o) => o.organisationId),
          );
        for (const { teamId } of teams)
          await this.departures.teamDeparture(tx, { teamId, userId, reason: 'account_deleted', at: now });
        for (const { organisationId } of organisations)
          await this.departures.organisationDeparture(tx, {
            organisationId,
            userId,
            reason: 'account_deleted',
            at: now,
          });
        await repo.removeMemberships(tx, userId);
        await repo.removeOrganisationMemberships(tx, userId);
        // An organisation the user is alone in, without teams, goes with the account.
        await repo.deleteOrganisations(
          tx,
          organisations.filter((o) => o.members === 1 && o.teams === 0).map((o) => o.organisationId),
        );
        await repo.deleteTeams(
          tx,
          teams.filter((t) => t.members === 1).map((t) => t.teamId),
        );
        await deletePushTokensOf(tx, userId);
        await repo.markDeletionRequested(tx, userId, now);
        await revokeUserSessions(tx, userId, now);
        return now;
      });
      return deletionStatus(requestedAt);
    } catch (error) {
      // A team's data that is not removed with the team (no cascading reference) blocks its deletion.
      if (sqlState(error) === '23503') {
        throw errors.conflict('A team you are alone in still holds data; delete that team first');
      }
      throw error;
    }
  }
}
