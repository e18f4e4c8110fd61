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
      description:
        'IANA time zone whose calendar days group the sessions (default UTC); an unknown zone is 400',
    }),
  ),
});

export const CampWeek = Type.Object(
  {
    campId: Id,
    slug: Type.String(),
    startsOn: Type.String({ format: 'date' }),
    endsOn: Type.String({ format: 'date' }),
    timezone: Type.String({ description: 'The time zone the days are in' }),
    days: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date' }),
        sessions: Type.Array(Session, { description: 'Sessions starting that day, earliest first' }),
      }),
      {
        description:
          "Every day of the camp, in order, with its sessions; a session of the camp starting outside the camp's " +
          'dates adds its own day',
      },
    ),
  },
  {
    title: 'CampWeek',
    description: "A camp's sessions grouped by calendar day in a time zone",
    examples: [
      {
        campId: 5,
        slug: 'summer-writing-camp',
        startsOn: '2026-07-06',
        endsOn: '2026-07-07',
        timezone: 'Europe/Berlin',
        days: [
          { date: '2026-07-06', sessions: [] },
          { date: '2026-07-07', sessions: [] },
        ],
      },
    ],
  },
);
