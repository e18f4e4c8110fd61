import { sql } from 'drizzle-orm';
import { reviewReviewers, trackVersions, versionReviews } from '../../../db/schema/index.ts';
import type { DepartureConsumer } from '../../memberships/departures.ts';

/**
 * A pending review request waits on a person only while they can read the track: one who leaves a team (or
 * is removed, or deletes the account) stops being asked to review its tracks, unless another team of theirs
 * still holds the track. Decisions already given stay.
 */
export const reviewDepartures: DepartureConsumer = {
  async teamDeparture(tx, { teamId, userId, reason }) {
    if (reason === 'demoted') return;
    const elsewhere =
      reason === 'account_deleted'
        ? sql`false`
        : sql`exists (select 1 from track_teams other inner join team_members m on m.team_id = other.team_id
            where other.track_id = v.track_id and other.team_id <> ${teamId} and m.user_id = ${userId})`;
    await tx.execute(sql`delete from ${reviewReviewers} rr
      using ${versionReviews} r, ${trackVersions} v
      where rr.review_id = r.id and v.id = r.version_id and rr.user_id = ${userId}
        and r.status = 'pending' and rr.decision is null
        and exists (select 1 from track_teams tt where tt.track_id = v.track_id and tt.team_id = ${teamId})
        and not ${elsewhere}`);
  },
};
