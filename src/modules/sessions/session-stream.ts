import { type SQL, sql } from 'drizzle-orm';
import { ownParticipationSql } from './session-access.ts';

/** What the real-time stream carries about sessions. */
export const SESSION_STREAM_TYPES = [
  'session.participant.added',
  'session.participant.updated',
  'session.participant.removed',
  'session.marker.created',
  'session.marker.updated',
  'session.marker.deleted',
  'session.canvas.updated',
] as const;
export type SessionStreamType = (typeof SESSION_STREAM_TYPES)[number];

/**
 * SQL: whether `userId` may get the stream event `type` of session `sessionId` now, by the area's read rule
 * (session-access.ts): a member of the session's team; for participant events anyone invited (they read the
 * participants), for markers and the canvas those who accepted. All three are SQL of the query.
 */
export function sessionEventReaderSql(sessionId: SQL, userId: SQL, type: SQL): SQL<boolean> {
  return sql<boolean>`(exists (select 1 from studio_sessions rs inner join team_members rm
      on rm.team_id = rs.team_id where rs.id = ${sessionId} and rm.user_id = ${userId})
    or exists (select 1 from session_participants p where p.session_id = ${sessionId}
      and ${ownParticipationSql(userId)}
      and (p.status = 'accepted' or ${type} like 'session.participant.%')))`;
}
