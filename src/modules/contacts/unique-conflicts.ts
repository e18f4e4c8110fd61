import { constraintOf, sqlState } from '../../shared/db-errors.ts';
import { errors } from '../../shared/errors.ts';

// What each unique index of the area means to a client: two writes that raced past the checks meet here.
const MESSAGES: Record<string, string> = {
  contacts_team_email_unique: 'Another contact of this team has this e-mail address',
  contact_handles_team_handle_unique: 'A handle in networks belongs to another contact of this team',
  contact_groups_team_name_unique: 'This team already has a group of this name',
};

/** A unique violation of the contacts area as 409 conflict; anything else is thrown again as it was. */
export function rethrowAsConflict(error: unknown): never {
  if (sqlState(error) === '23505') {
    const message = MESSAGES[constraintOf(error) ?? ''];
    if (message) throw errors.conflict(message);
  }
  throw error;
}
