import { errors } from '../../shared/errors.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import type { Passwords } from './passwords.ts';

/** Wrong current passwords a signed-in user may send per hour (changing the address or the password). */
export const CURRENT_PASSWORD_FAILURES_PER_HOUR = 10;
export const CURRENT_PASSWORD_LIMITER = 'password:current';

/**
 * Checks the password a signed-in person gives to change their credentials. A stolen session must not
 * become a way to guess the password: failures are counted per user (429 past the budget), a success
 * gives its point back.
 */
export class CurrentPassword {
  constructor(
    private readonly passwords: Passwords,
    private readonly limits: RateLimits,
  ) {}

  async check(userId: string, passwordHash: string, password: string, field = 'password'): Promise<void> {
    const budget = [CURRENT_PASSWORD_LIMITER, userId, CURRENT_PASSWORD_FAILURES_PER_HOUR, 3600] as const;
    const taken = await this.limits.consume(...budget);
    if (!taken.allowed) throw errors.rateLimited(taken.resetSeconds);
    if (!(await this.passwords.verify(passwordHash, password)))
      throw errors.validation(
        [{ path: `/body/${field}`, message: 'is not the current password' }],
        'The current password is not right',
      );
    await this.limits.refund(...budget);
  }
}
