import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contacts } from '../../db/schema/index.ts';
import { type ErrorDetail, errors } from '../../shared/errors.ts';

/** A contact id a request names, with the JSON pointer it came from (`/body/entries/3/contactId`). */
export type ContactReference = [path: string, contactId: number | null | undefined];

/**
 * For other areas that point at contacts (financial entries): every named contact must be a contact of the
 * team, else 400 `validation_failed` naming each bad path (missing and another team's alike). Call it in the
 * write's transaction: the contacts found are locked against deletion until it ends.
 */
export async function requireTeamContacts(tx: Db, teamId: number, refs: ContactReference[]): Promise<void> {
  const named = refs.filter((ref): ref is [string, number] => typeof ref[1] === 'number');
  if (named.length === 0) return;
  const ids = [...new Set(named.map(([, id]) => id))];
  const rows = await tx
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), inArray(contacts.id, ids)))
    .for('key share');
  const found = new Set(rows.map((r) => r.id));
  const problems: ErrorDetail[] = named
    .filter(([, id]) => !found.has(id))
    .map(([path]) => ({ path, message: 'is not a contact of this team' }));
  if (problems.length > 0) throw errors.validation(problems);
}
