import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../../shared/schemas.ts';
import { EXAMPLE_TIME, Name } from '../organisations.schemas.ts';

const Address = Type.String({ maxLength: 500 });
const TimeZone = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9/_+-]+$',
  description:
    'IANA time zone, e.g. Europe/Berlin (any spelling of a known zone; stored canonical; an unknown one is 400)',
});
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const buildingFields = {
  id: Id,
  name: Type.String(),
  address: Type.Union([Type.String(), Type.Null()]),
  timezone: Type.Union([Type.String(), Type.Null()], {
    description: 'IANA time zone in its canonical spelling (Europe/Berlin)',
  }),
};

const EXAMPLE_BUILDING = {
  id: 2,
  name: 'Funkhaus',
  address: 'Nalepastraße 18, 12459 Berlin',
  timezone: 'Europe/Berlin',
};

export const Building = Type.Object(
  {
    ...buildingFields,
    organisationId: Id,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'Building',
    description: 'A building of an organisation, holding its studios',
    examples: [{ ...EXAMPLE_BUILDING, organisationId: 3, createdAt: EXAMPLE_TIME, updatedAt: EXAMPLE_TIME }],
  },
);
export const BuildingPage = Page(Building);

export const Studio = Type.Object(
  {
    id: Id,
    organisationId: Id,
    buildingId: Id,
    name: Type.String(),
    building: Type.Object(buildingFields, { description: 'The building the studio is in' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'Studio',
    description: 'A bookable room in a building: two sessions never overlap in one studio',
    examples: [
      {
        id: 4,
        organisationId: 3,
        buildingId: 2,
        name: 'Studio A',
        building: EXAMPLE_BUILDING,
        createdAt: EXAMPLE_TIME,
        updatedAt: EXAMPLE_TIME,
      },
    ],
  },
);
export const StudioPage = Page(Studio);

export const PlacesQuery = Type.Object(PageQuery);
export const BuildingParams = Type.Object({ id: Id, buildingId: Id });
export const StudioParams = Type.Object({ id: Id, studioId: Id });

export const CreateBuildingBody = Type.Object(
  {
    name: Name,
    address: Type.Optional(Address),
    timezone: Type.Optional(TimeZone),
  },
  {
    title: 'BuildingCreate',
    examples: [{ name: 'Funkhaus', address: 'Nalepastraße 18, 12459 Berlin', timezone: 'Europe/Berlin' }],
  },
);
export const UpdateBuildingBody = Type.Object(
  {
    name: Type.Optional(Name),
    address: Type.Optional(Nullable(Address)),
    timezone: Type.Optional(Nullable(TimeZone)),
  },
  {
    minProperties: 1,
    title: 'BuildingUpdate',
    description: 'At least one field; null clears address or timezone',
    examples: [{ address: null, timezone: 'Europe/Berlin' }],
  },
);

export const CreateStudioBody = Type.Object(
  {
    buildingId: { ...Id, description: 'A building of the same organisation' },
    name: { ...Name, description: 'Unique in its building, ignoring case; 1 to 200 characters' },
  },
  { title: 'StudioCreate', examples: [{ buildingId: 2, name: 'Studio A' }] },
);
export const UpdateStudioBody = Type.Object(
  {
    buildingId: Type.Optional({
      ...Id,
      description: 'Moves the studio to this building of the organisation',
    }),
    name: Type.Optional({
      ...Name,
      description: 'Unique in its building, ignoring case; 1 to 200 characters',
    }),
  },
  {
    minProperties: 1,
    title: 'StudioUpdate',
    description: 'At least one field',
    examples: [{ name: 'Studio B' }],
  },
);
