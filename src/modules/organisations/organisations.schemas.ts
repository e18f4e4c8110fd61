import { Type } from '@sinclair/typebox';
import { ORGANISATION_ROLES } from '../../db/schema/index.ts';
import { Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

export const OrganisationRoleSchema = StringEnum(ORGANISATION_ROLES, {
  description: 'owner | admin | member',
});

export const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: '1 to 200 characters, not only spaces',
});

export const Organisation = Type.Object({
  id: Id,
  name: Type.String(),
  role: Type.Union([OrganisationRoleSchema, Type.Null()], {
    description: "The caller's role; null when the caller reads it as a member of one of its teams",
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export const OrganisationPage = Page(Organisation);

export const ListQuery = Type.Object(PageQuery);
export const CreateOrganisationBody = Type.Object({ name: Name });
export const UpdateOrganisationBody = Type.Object({ name: Name });

export const OrganisationTeam = Type.Object({
  id: Id,
  name: Type.String(),
  addedAt: Timestamp,
});
export const OrganisationTeamPage = Page(OrganisationTeam);
export const AddTeamBody = Type.Object({ teamId: Id });
export const TeamParams = Type.Object({ id: Id, teamId: Id });
