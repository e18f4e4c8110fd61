import { and, eq, inArray } from 'drizzle-orm';
import { shareLinks } from '../../db/schema/index.ts';
import type { DepartureConsumer } from '../memberships/departures.ts';
import { revokeLinks } from './share-links.repository.ts';

/**
 * A review link answers for whoever made it: when its creator leaves the team, is removed from it, is demoted
 * below admin or deletes the account, the links they made for that team are revoked; when a key is revoked,
 * so are the links it made. Their counts and activity stay.
 */
export const shareLinkDepartures: DepartureConsumer = {
  async teamDeparture(tx, { teamId, userId, at }) {
    await revokeLinks(tx, and(eq(shareLinks.teamId, teamId), eq(shareLinks.createdBy, userId)), at);
  },
  async keysRevoked(tx, { keys, at }) {
    for (const teamId of new Set(keys.map((key) => key.teamId))) {
      const keyIds = keys.filter((key) => key.teamId === teamId).map((key) => key.id);
      await revokeLinks(
        tx,
        and(eq(shareLinks.teamId, teamId), inArray(shareLinks.createdByKeyId, keyIds)),
        at,
      );
    }
  },
};
