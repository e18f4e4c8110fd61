import { Type } from '@sinclair/typebox';
import { CAMP_RSVP_STATUSES } from '../../../db/schema/index.ts';
import { CalendarDate, Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { Slug } from '../../../shared/slugs.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { Name } from '../organisations.schemas.ts';

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
  startsOn: Type.String({ format: 'date' }),
  endsOn: Type.String({ format: 'date' }),
  location: Type.Union([Type.String(), Type.Null()]),
  myRsvp: Type.Union([RsvpStatus, Type.Null()], { description: "The caller's answer, if any" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const Camp = Type.Object(campFields);
export const CampPage = Page(Camp);
export const CampDetail = Type.Object({
  ...campFields,
  rsvpCounts: Type.Object(
    { accepted: Type.Integer(), declined: Type.Integer(), maybe: Type.Integer() },
    { description: 'How many people gave each answer' },
  ),
});

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

export const CreateCampBody = Type.Object({
  name: Name,
  slug: Type.Optional(CampSlug),
  startsOn: CalendarDate,
  endsOn: CalendarDate,
  location: Type.Optional(Location),
});
export const UpdateCampBody = Type.Object(
  {
    name: Type.Optional(Name),
    slug: Type.Optional(CampSlug),
    startsOn: Type.Optional(CalendarDate),
    endsOn: Type.Optional(CalendarDate),
    location: Type.Optional(Type.Union([Location, Type.Null()])),
  },
  { minProperties: 1 },
);

export const RsvpBody = Type.Object({ status: RsvpStatus });
export const Rsvp = Type.Object({
  organisationId: Id,
  campId: Id,
  userId: Uuid,
  status: RsvpStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
