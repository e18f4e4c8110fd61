import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { sessionLinkRefusals as refusals } from '../../../db/schema/index.ts';

/**
 * Refuses the user's join links: of one session (`sessionId`) until they are invited again, or (`sessionId`
 * null) of every session of the team made before `at`. Refusing again moves the time on.
 */
export async function refuseLinks(
  db: Db,
  refusal: { teamId: number; sessionId: number | null; userId: string; at: Date },
): Promise<void> {
  await db.execute(sql`insert into ${refusals} (team_id, session_id, user_id, refused_at)
    values (${refusal.teamId}, ${refusal.sessionId}, ${refusal.userId}, ${refusal.at.toISOString()}::timestamptz)
    on conflict (user_id, team_id, coalesce(session_id, 0)) do update set refused_at = excluded.refused_at`);
}

/** Whether a join link of the session made at `issuedAt` is refused to the user (see `refuseLinks`). */
export async function linkRefused(
  db: Db,
  link: { teamId: number; sessionId: number; userId: string; issuedAt: Date },
): Promise<boolean> {
  const [row] = await db
    .select({ id: refusals.id })
    .from(refusals)
    .where(
      sql`${refusals.userId} = ${link.userId} and ${refusals.teamId} = ${link.teamId} and
        (${refusals.sessionId} = ${link.sessionId}
          or (${refusals.sessionId} is null and ${refusals.refusedAt} >= ${link.issuedAt.toISOString()}::timestamptz))`,
    )
    .limit(1);
  return row !== undefined;
}
