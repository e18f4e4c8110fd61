import { sql } from 'drizzle-orm';
import { sessionCalendarFeeds, sessionParticipants, studioSessions } from '../../db/schema/index.ts';
import type { DepartureConsumer } from '../memberships/departures.ts';
import { refuseLinks } from './participants/link-refusals.repository.ts';
import { ownParticipationSql } from './session-access.ts';

/**
 * What a person held in a team's studio sessions ends when they leave the team, are removed from it or delete
 * their account: their invitations (pending or accepted; the team may invite them again as a guest), the join
 * links handed out before, and their calendar feeds of the team. A demotion keeps them all (members hold them).
 */
export const sessionDepartures: DepartureConsumer = {
  async teamDeparture(tx, { teamId, userId, reason, at }) {
    if (reason === 'demoted') return;
    await tx.execute(sql`delete from ${sessionParticipants} p
      using ${studioSessions} s
      where s.id = p.session_id and s.team_id = ${teamId} and ${ownParticipationSql(userId)}`);
    await refuseLinks(tx, { teamId, sessionId: null, userId, at });
    await tx.execute(sql`update ${sessionCalendarFeeds}
      set version = version + 1, updated_at = ${at.toISOString()}::timestamptz
      where team_id = ${teamId} and user_id = ${userId}`);
  },
};
