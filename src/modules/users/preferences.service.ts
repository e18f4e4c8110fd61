import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import { findUserById } from '../auth/auth.repository.ts';
import { normalisePatch, type Preferences, type PreferencesPatch, withDefaults } from './preferences.ts';
import { mergePreferences } from './users.repository.ts';

/** The user's preferences: a closed, documented set of fields with defaults (see `preferences.ts`). */
export class PreferencesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(principal: Principal): Promise<Preferences> {
    const user = await findUserById(this.db, sessionUserId(principal));
    if (!user) throw errors.unauthorized();
    return withDefaults(user.preferences);
  }

  async update(principal: Principal, input: PreferencesPatch): Promise<Preferences> {
    const userId = sessionUserId(principal);
    const { patch, problems } = normalisePatch(input);
    if (problems.length > 0) throw errors.validation(problems);
    const stored = await mergePreferences(this.db, userId, patch, this.clock.now());
    if (!stored) throw errors.unauthorized();
    return withDefaults(stored);
  }
}
