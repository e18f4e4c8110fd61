import { Type } from '@sinclair/typebox';
import { desc, sql } from 'drizzle-orm';
import { studioSessions as s } from '../../../db/schema/index.ts';
import { ownParticipationSql } from '../../sessions/session-access.ts';
import { Session } from '../../sessions/sessions.schemas.ts';
import type { TogetherPart } from './together-context.ts';

/** Sessions `sessions` lists at most. */
export const TOGETHER_SESSIONS_LIMIT = 50;

const TogetherSessions = Type.Array(
  Type.Pick(Session, ['id', 'teamId', 'title', 'startsAt', 'endsAt', 'status'], {
    title: 'TogetherSession',
    description: 'A studio session both may see, in short',
    examples: [
      {
        id: 311,
        teamId: 7,
        title: 'Vocal tracking',
        startsAt: '2026-04-02T10:00:00.000Z',
        endsAt: '2026-04-02T14:00:00.000Z',
        status: 'scheduled',
      },
    ],
  }),
  {
    description:
      'Studio sessions both may see: sessions of a shared team, and sessions where each is a member of the ' +
      `session's team or invited to it. Latest start first, at most ${TOGETHER_SESSIONS_LIMIT}.`,
  },
);

// Spelled out: inside the subqueries a bare column name would bind to their own tables.
const SESSION_ID = sql.raw('"studio_sessions"."id"');
const SESSION_TEAM = sql.raw('"studio_sessions"."team_id"');

/** The sessions' own reading rule: a member of the session's team, or someone invited to it. */
const mayRead = (userId: string) => sql`(exists (select 1 from team_members m
    where m.team_id = ${SESSION_TEAM} and m.user_id = ${userId})
  or exists (select 1 from session_participants p where p.session_id = ${SESSION_ID} and ${ownParticipationSql(userId)}))`;

const invitedTo = (userId: string) =>
  sql`${s.id} in (select p.session_id from session_participants p where ${ownParticipationSql(userId)})`;

export const sessionsPart: TogetherPart<typeof TogetherSessions> = {
  schema: TogetherSessions,
  read({ db, callerId, personId, teamIds }) {
    // Candidates through indexes (the shared teams' sessions, either one's invitations), then the rule for both.
    return db
      .select({
        id: s.id,
        teamId: s.teamId,
        title: s.title,
        startsAt: s.startsAt,
        endsAt: s.endsAt,
        status: s.status,
      })
      .from(s)
      .where(
        sql`(${s.teamId} = any(${sql.param(teamIds)}::int[]) or ${invitedTo(callerId)} or ${invitedTo(personId)})
          and ${mayRead(callerId)} and ${mayRead(personId)}`,
      )
      .orderBy(desc(s.startsAt), desc(s.id))
      .limit(TOGETHER_SESSIONS_LIMIT);
  },
};
