import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { isKeyInt } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { type OrganisationAccess, type OrganisationNeed, requireOrganisation } from '../access.ts';
import { type CampRow, findCampByRef } from './camps.repository.ts';

/** `{camp}` of `/camps/{camp}/...`: digits are an id, anything else a slug (slugs are never only digits). */
function parseCampRef(raw: string): { id: number } | { slug: string } | undefined {
  if (!/^[0-9]+$/.test(raw)) return { slug: raw };
  const id = Number(raw);
  return isKeyInt(id) && id > 0 ? { id } : undefined;
}

/** The camp `{camp}` names, if the caller reads its organisation (404 otherwise, as for a missing camp). */
export async function requireCampRef(
  db: Db,
  principal: Principal,
  raw: string,
  need: OrganisationNeed = 'read',
): Promise<{ camp: CampRow; access: OrganisationAccess }> {
  const ref = parseCampRef(raw);
  const camp = ref ? await findCampByRef(db, ref) : undefined;
  if (!camp) throw errors.notFound('camp');
  const access = await requireOrganisation(db, principal, camp.organisationId, need, 'camp');
  return { camp, access };
}
