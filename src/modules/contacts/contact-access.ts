import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { contacts, teamMembers } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { type ContactRow, contactColumns } from './contacts.repository.ts';

const contactOfMember = preparedQuery(
  'contact_of_member',
  (db, p: Placeholders<{ contactId: number; userId: string }>) =>
    db
      .select(contactColumns)
      .from(contacts)
      .where(
        and(
          eq(contacts.id, p.contactId),
          sql`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = "contacts"."team_id" and ${teamMembers.userId} = ${p.userId})`,
        ),
      )
      .limit(1),
);

const contactOfKeyTeam = preparedQuery(
  'contact_of_key_team',
  (db, p: Placeholders<{ contactId: number; teamId: number }>) =>
    db
      .select(contactColumns)
      .from(contacts)
      .where(and(eq(contacts.id, p.contactId), eq(contacts.teamId, p.teamId)))
      .limit(1),
);

/**
 * The tenancy guard of one contact: visible to the members of its team and to that team's keys; anything
 * else (missing, another team's) is 404.
 */
export async function requireContact(db: Db, principal: Principal, contactId: number): Promise<ContactRow> {
  const [contact] =
    principal.type === 'key'
      ? await contactOfKeyTeam(db, { contactId, teamId: principal.teamId })
      : await contactOfMember(db, { contactId, userId: principal.userId });
  if (!contact) throw errors.notFound('contact');
  return contact as ContactRow;
}
