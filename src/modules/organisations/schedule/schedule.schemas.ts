import { Type } from '@sinclair/typebox';
import { STUDIO_SESSION_STATUSES } from '../../../db/schema/index.ts';
import { Id, PageQuery, TimestampInput } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { Session } from '../../sessions/sessions.schemas.ts';

/** The most sessions a camp's week lists. */
export const MAX_WEEK_SESSIONS = 500;

export const OrganisationSessionsQuery = Type.Object({
  from: Type.Optional(
    Type.String({ ...TimestampInput, description: 'Only sessions starting at or after this instant' }),
  ),
  to: Type.Optional(
    Type.String({ ...TimestampInput, description: 'Only sessions starting before this instant' }),
  ),
  status: Type.Optional(
    StringEnum(STUDIO_SESSION_STATUSES, { description: 'Only sessions with this status' }),
  ),
  ...PageQuery,
});

export const WeekQuery = Type.Object({
  timezone: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9/_+-]+$',
      description: 'IANA time zone whose calendar days group the sessions (default UTC)',
    }),
  ),
});

const WEEK_SESSION_EXAMPLE = {
  id: 43,
  teamId: 7,
  title: 'Night Drive – writing room',
  startsAt: '2026-07-06T10:00:00.000Z',
  endsAt: '2026-07-06T14:00:00.000Z',
  studioId: 3,
  campId: 5,
  status: 'scheduled',
  notes: null,
  createdBy: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
  createdAt: '2026-06-20T09:00:00.000Z',
  updatedAt: '2026-06-20T09:00:00.000Z',
};

const CampWeekDay = Type.Object(
  {
    date: Type.String({ format: 'date' }),
    sessions: Type.Array(Session, { description: 'Sessions starting that day, earliest first' }),
  },
  {
    title: 'CampWeekDay',
    description: 'A day of the camp with the sessions that start on it',
    examples: [{ date: '2026-07-06', sessions: [WEEK_SESSION_EXAMPLE] }],
  },
);

export const CampWeek = Type.Object(
  {
    campId: Id,
    slug: Type.String(),
    startsOn: Type.String({ format: 'date' }),
    endsOn: Type.String({ format: 'date' }),
    timezone: Type.String({ description: 'The time zone the days are in' }),
    days: Type.Array(CampWeekDay, {
      description:
        "Every day of the camp, in order, with its sessions; a session of the camp starting outside the camp's " +
        'dates adds its own day',
    }),
  },
  {
    title: 'CampWeek',
    description: "A camp's sessions grouped by day",
    examples: [
      {
        campId: 5,
        slug: 'summer-writing-camp-2026',
        startsOn: '2026-07-06',
        endsOn: '2026-07-07',
        timezone: 'Europe/Berlin',
        days: [
          { date: '2026-07-06', sessions: [WEEK_SESSION_EXAMPLE] },
          { date: '2026-07-07', sessions: [] },
        ],
      },
    ],
  },
);
