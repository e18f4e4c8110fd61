import { Type } from '@sinclair/typebox';
import { CAMP_RSVP_STATUSES } from '../../../db/schema/index.ts';
import { CalendarDate, Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { Slug } from '../../../shared/slugs.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { EXAMPLE_TIME, EXAMPLE_USER, Name } from '../organisations.schemas.ts';

export const RsvpStatus = StringEnum(CAMP_RSVP_STATUSES, { description: 'accepted | declined | maybe' });
const Location = Type.String({ maxLength: 500 });
const CampSlug = Type.String({
  ...Slug,
  description: `${Slug.description}; not only digits (\`/camps/{camp}\` takes the id or the slug)`,
});

const campFields = {
  id: Id,
  organisationId: Id,
  name: Type.String(),
  slug: Type.String({ description: 'Unique across the service; `/camps/{slug}` finds the camp' }),
  startsOn: Type.String({ format: 'date', description: 'First day, YYYY-MM-DD' }),
  endsOn: Type.String({ format: 'date', description: 'Last day, YYYY-MM-DD (never before startsOn)' }),
  location: Type.Union([Type.String(), Type.Null()]),
  myRsvp: Type.Union([RsvpStatus, Type.Null()], { description: "The caller's answer, if any" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

const EXAMPLE_CAMP = {
  id: 5,
  organisationId: 3,
  name: 'Summer Writing Camp',
  slug: 'summer-writing-camp',
  startsOn: '2026-07-06',
  endsOn: '2026-07-10',
  location: 'Funkhaus, Berlin',
  myRsvp: 'accepted',
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

export const Camp = Type.Object(campFields, {
  title: 'Camp',
  description: 'A writing or recording camp of an organisation',
  examples: [EXAMPLE_CAMP],
});
export const CampPage = Page(Camp);
export const CampDetail = Type.Object(
  {
    ...campFields,
    rsvpCounts: Type.Object(
      { accepted: Type.Integer(), declined: Type.Integer(), maybe: Type.Integer() },
      { description: 'How many people gave each answer' },
    ),
  },
  {
    title: 'CampDetail',
    description: 'A camp with how many people gave each answer',
    examples: [{ ...EXAMPLE_CAMP, rsvpCounts: { accepted: 12, declined: 2, maybe: 3 } }],
  },
);

export const CampsQuery = Type.Object(PageQuery);
export const CampParams = Type.Object({ id: Id, campId: Id });
export const CampRefParams = Type.Object({
  camp: Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[a-z0-9-]+$',
    description: "The camp's id or its slug",
  }),
});

const DATES_RULE = 'endsOn must not be before startsOn (400 validation_failed)';

export const CreateCampBody = Type.Object(
  {
    name: Name,
    slug: Type.Optional(CampSlug),
    startsOn: CalendarDate,
    endsOn: CalendarDate,
    location: Type.Optional(Location),
  },
  {
    title: 'CampCreate',
    description: `${DATES_RULE}; without slug, one is made from the name`,
    examples: [
      {
        name: 'Summer Writing Camp',
        slug: 'summer-writing-camp',
        startsOn: '2026-07-06',
        endsOn: '2026-07-10',
        location: 'Funkhaus, Berlin',
      },
    ],
  },
);
export const UpdateCampBody = Type.Object(
  {
    name: Type.Optional(Name),
    slug: Type.Optional(CampSlug),
    startsOn: Type.Optional(CalendarDate),
    endsOn: Type.Optional(CalendarDate),
    location: Type.Optional(Type.Union([Location, Type.Null()])),
  },
  {
    minProperties: 1,
    title: 'CampUpdate',
    description: `At least one field; ${DATES_RULE} (after the change); null clears the location`,
    examples: [{ endsOn: '2026-07-11', location: null }],
  },
);

export const RsvpBody = Type.Object(
  { status: RsvpStatus },
  { title: 'CampRsvpUpdate', examples: [{ status: 'accepted' }] },
);
export const Rsvp = Type.Object(
  {
    organisationId: Id,
    campId: Id,
    userId: Uuid,
    status: RsvpStatus,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'CampRsvp',
    description: "The caller's answer to a camp",
    examples: [
      {
        organisationId: 3,
        campId: 5,
        userId: EXAMPLE_USER,
        status: 'accepted',
        createdAt: EXAMPLE_TIME,
        updatedAt: '2026-03-15T08:00:00.000Z',
      },
    ],
  },
);
