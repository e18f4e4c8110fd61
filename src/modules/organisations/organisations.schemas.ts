import { Type } from '@sinclair/typebox';
import { ORGANISATION_ROLES } from '../../db/schema/index.ts';
import { Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

export const OrganisationRoleSchema = StringEnum(ORGANISATION_ROLES, {
  description: 'owner | admin | member',
});

/** People and places the examples of the organisations area name (one consistent story). */
export const EXAMPLE_USER = '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b';
export const EXAMPLE_OTHER_USER = '0193a5f2-7d2f-7c4b-8a21-4d3e5f6a7b8c';
export const EXAMPLE_TIME = '2026-03-14T09:30:00.000Z';

export const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: '1 to 200 characters, not only spaces',
});

export const Organisation = Type.Object(
  {
    id: Id,
    name: Type.String(),
    role: Type.Union([OrganisationRoleSchema, Type.Null()], {
      description: "The caller's role; null when the caller reads it as a member of one of its teams",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'Organisation',
    description: 'A group of teams with its own members, buildings, studios and camps',
    examples: [
      {
        id: 3,
        name: 'Night Drive Collective',
        role: 'owner',
        createdAt: EXAMPLE_TIME,
        updatedAt: EXAMPLE_TIME,
      },
    ],
  },
);
export const OrganisationPage = Page(Organisation);

export const ListQuery = Type.Object(PageQuery);
export const CreateOrganisationBody = Type.Object(
  { name: Name },
  { title: 'OrganisationCreate', examples: [{ name: 'Night Drive Collective' }] },
);
export const UpdateOrganisationBody = Type.Object(
  { name: Name },
  { title: 'OrganisationUpdate', examples: [{ name: 'Night Drive Collective Berlin' }] },
);

export const OrganisationTeam = Type.Object(
  {
    id: Id,
    name: Type.String(),
    addedAt: Timestamp,
  },
  {
    title: 'OrganisationTeam',
    description: 'A team the organisation groups',
    examples: [{ id: 7, name: 'Luna Vale', addedAt: EXAMPLE_TIME }],
  },
);
export const OrganisationTeamPage = Page(OrganisationTeam);
export const AddTeamBody = Type.Object(
  { teamId: { ...Id, description: 'A team the caller is an owner or admin of' } },
  { title: 'OrganisationTeamAdd', examples: [{ teamId: 7 }] },
);
export const TeamParams = Type.Object({ id: Id, teamId: Id });
