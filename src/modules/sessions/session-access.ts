import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type ParticipantStatus, studioSessions as sessions } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { verifiedAddressSql } from '../../shared/own-address.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import type { SessionRow } from './sessions.repository.ts';

/**
 * What a caller needs of a session:
 * - `member`: a member of its team (every change, invite links, calendar feeds);
 * - `guest`: a member, or a participant who accepted (reads of files, songs, recordings, markers, canvas);
 * - `participant`: a member, or anyone invited (the session itself, its participants, answering).
 * A caller short of it gets 404, like someone the session does not concern.
 */
export type SessionNeed = 'member' | 'guest' | 'participant';

export type SessionAccess = {
  session: SessionRow;
  userId: string;
  member: boolean;
  /** The caller's own answer when they are invited (by user or by their e-mail), else null. */
  participation: ParticipantStatus | null;
};

/**
 * An invitation (`p`, a session_participants row) of `userId`, a value or SQL of the query (not naming the
 * alias `va`): by user, or an e-mail invitation to their address once that address is verified.
 */
export const ownParticipationSql = (userId: string | SQL) => sql`(p.user_id = ${userId}
  or (p.user_id is null and lower(p.email) = ${verifiedAddressSql(userId)}))`;

// Spelled out: inside a subquery Drizzle's bare column name would bind to the subquery's own table.
const SESSION_TEAM = sql.raw('"studio_sessions"."team_id"');
const SESSION_ID = sql.raw('"studio_sessions"."id"');

async function findAccess(db: Db, sessionId: number, userId: string) {
  const [row] = await db
    .select({
      session: sessions,
      member: sql<boolean>`exists (select 1 from team_members m
        where m.team_id = ${SESSION_TEAM} and m.user_id = ${userId})`,
      participation: sql<ParticipantStatus | null>`(select p.status from session_participants p
        where p.session_id = ${SESSION_ID} and ${ownParticipationSql(userId)}
        order by (p.status = 'accepted') desc, p.id limit 1)`,
    })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return row;
}

function allows(need: SessionNeed, member: boolean, participation: ParticipantStatus | null): boolean {
  if (member) return true;
  if (need === 'guest') return participation === 'accepted';
  return need === 'participant' && participation !== null;
}

/**
 * The tenancy guard of the area: the session when the caller has `need` of it and `teamId` (when the
 * request names one) is its team; anything else is 404.
 */
export async function requireSession(
  db: Db,
  principal: Principal,
  sessionId: number,
  need: SessionNeed,
  teamId?: number,
): Promise<SessionAccess> {
  const userId = sessionUserId(principal);
  const found = await findAccess(db, sessionId, userId);
  if (!found || (teamId !== undefined && found.session.teamId !== teamId)) throw errors.notFound('session');
  if (!allows(need, found.member, found.participation)) throw errors.notFound('session');
  return { ...found, userId };
}
