import { and, eq, isNull } from 'drizzle-orm';
import { invites } from '../../db/schema/index.ts';
import type { DepartureConsumer } from '../memberships/departures.ts';

/**
 * An open invite speaks for the admin who made it: when they leave, are removed, are demoted below admin or
 * delete their account, their open invites of the team are withdrawn (the team may invite again).
 */
export const inviteDepartures: DepartureConsumer = {
  async teamDeparture(tx, { teamId, userId }) {
    await tx
      .delete(invites)
      .where(
        and(
          eq(invites.teamId, teamId),
          eq(invites.createdBy, userId),
          isNull(invites.acceptedAt),
          isNull(invites.declinedAt),
        ),
      );
  },
};
