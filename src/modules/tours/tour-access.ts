import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { teamMembers, tours } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import { type TourRow, toursWithCover } from './tours.repository.ts';

const tourOfMember = preparedQuery(
  'tour_of_member',
  (db, p: Placeholders<{ tourId: number; userId: string }>) =>
    toursWithCover(db)
      .where(
        and(
          eq(tours.id, p.tourId),
          sql`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = "tours"."team_id" and ${teamMembers.userId} = ${p.userId})`,
        ),
      )
      .limit(1),
);

/**
 * The tenancy guard of one tour (a session-only area): visible to, and changed by, the members of its team;
 * anything else (missing, another team's) is 404.
 */
export async function requireTour(db: Db, principal: Principal, tourId: number): Promise<TourRow> {
  const [tour] = await tourOfMember(db, { tourId, userId: sessionUserId(principal) });
  if (!tour) throw errors.notFound('tour');
  return tour as TourRow;
}
