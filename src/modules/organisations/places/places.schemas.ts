import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../../shared/schemas.ts';
import { Name } from '../organisations.schemas.ts';

const Address = Type.String({ maxLength: 500 });
const TimeZone = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9/_+-]+$',
  description: 'IANA time zone, e.g. Europe/Berlin',
});
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const buildingFields = {
  id: Id,
  name: Type.String(),
  address: Type.Union([Type.String(), Type.Null()]),
  timezone: Type.Union([Type.String(), Type.Null()]),
};

export const Building = Type.Object({
  ...buildingFields,
  organisationId: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export const BuildingPage = Page(Building);

export const Studio = Type.Object({
  id: Id,
  organisationId: Id,
  buildingId: Id,
  name: Type.String(),
  building: Type.Object(buildingFields, { description: 'The building the studio is in' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export const StudioPage = Page(Studio);

export const PlacesQuery = Type.Object(PageQuery);
export const BuildingParams = Type.Object({ id: Id, buildingId: Id });
export const StudioParams = Type.Object({ id: Id, studioId: Id });

export const CreateBuildingBody = Type.Object({
  name: Name,
  address: Type.Optional(Address),
  timezone: Type.Optional(TimeZone),
});
export const UpdateBuildingBody = Type.Object(
  {
    name: Type.Optional(Name),
    address: Type.Optional(Nullable(Address)),
    timezone: Type.Optional(Nullable(TimeZone)),
  },
  { minProperties: 1 },
);

export const CreateStudioBody = Type.Object({ buildingId: Id, name: Name });
export const UpdateStudioBody = Type.Object(
  { buildingId: Type.Optional(Id), name: Type.Optional(Name) },
  { minProperties: 1 },
);
