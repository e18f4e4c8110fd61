import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { normaliseEmail } from '../../shared/email.ts';
import { errors } from '../../shared/errors.ts';
import { randomToken, sha256 } from '../../shared/hash.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import { sessionOf } from '../../shared/tenancy.ts';
import { passwordChangedMail, passwordResetMail } from './auth.mails.ts';
import { findUserByEmail, findUserById, revokeUserSessions } from './auth.repository.ts';
import { LOGIN_LIMITERS } from './auth.service.ts';
import * as credentials from './credentials.repository.ts';
import type { CurrentPassword } from './current-password.ts';
import { dropMailTokens, peekMailToken, replaceMailToken, spendMailToken } from './mail-tokens.repository.ts';
import { passwordWeakness } from './password-policy.ts';
import type { Passwords } from './passwords.ts';

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_MINUTES = 30;
/** Reset mails per normalised address per hour; past it, requests are answered alike and send nothing. */
export const PASSWORD_RESETS_PER_EMAIL = 3;
/** Reset requests per client address per hour; past it, 429. */
export const PASSWORD_RESETS_PER_CLIENT = 20;
export const PASSWORD_RESET_LIMITERS = {
  email: 'password-reset:email',
  client: 'password-reset:client',
} as const;

const weak = (reason: string) => errors.validation([{ path: '/body/password', message: reason }]);

/** Setting a password: reset by mail while signed out, or changed while signed in. */
export class PasswordReset {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly limits: RateLimits,
    private readonly passwords: Passwords,
    private readonly currentPassword: CurrentPassword,
    /** The login failure budget per e-mail, which a reset starts over. */
    private readonly login: { maxFailures: number; windowSeconds: number },
  ) {}

  /**
   * Mails a reset link when the address names a live account. Whether it does is never told: the answer,
   * and the work before it (the lookup, the budget), are the same either way.
   */
  async request(input: { email: string }, clientIp: string): Promise<void> {
    const byClient = await this.limits.consume(
      PASSWORD_RESET_LIMITERS.client,
      clientIp,
      PASSWORD_RESETS_PER_CLIENT,
      3600,
    );
    if (!byClient.allowed) throw errors.rateLimited(byClient.resetSeconds);
    const email = normaliseEmail(input.email);
    const user = await findUserByEmail(this.db, email);
    const byEmail = await this.limits.consume(
      PASSWORD_RESET_LIMITERS.email,
      email,
      PASSWORD_RESETS_PER_EMAIL,
      3600,
    );
    if (!byEmail.allowed || !user || user.deletionRequestedAt) return;
    const token = randomToken(32);
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await replaceMailToken(
        tx,
        {
          tokenHash: sha256(token),
          userId: user.id,
          purpose: 'reset_password',
          email,
          expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000),
        },
        now,
      );
      await this.mailer.send(tx, {
        to: user.email,
        kind: 'auth.password_reset',
        content: passwordResetMail(
          this.mailer.link('/reset-password', { token }),
          PASSWORD_RESET_TTL_MINUTES,
        ),
      });
    });
  }

  /**
   * Sets the password a reset link was sent for, ends every session of the account, marks its address
   * verified (the link was read there) and tells the address.
   */
  async confirm(input: { token: string; password: string }): Promise<void> {
    const tokenHash = sha256(input.token);
    const now = this.clock.now();
    const found = await peekMailToken(this.db, tokenHash, now);
    if (found?.purpose !== 'reset_password') throw errors.invalidToken();
    const weakness = passwordWeakness(input.password, found.email);
    if (weakness) throw weak(weakness);
    const passwordHash = await this.passwords.hash(input.password);
    await this.db.transaction(async (tx) => {
      const spent = await spendMailToken(tx, tokenHash, now);
      if (spent?.purpose !== 'reset_password') throw errors.invalidToken();
      const user = await credentials.lockLiveUser(tx, spent.userId);
      // The account moved to another address since: this one no longer speaks for it.
      if (!user || normaliseEmail(user.email) !== spent.email) throw errors.invalidToken();
      await credentials.setPasswordHash(tx, user.id, passwordHash, now, true);
      await revokeUserSessions(tx, user.id, now);
      await dropMailTokens(tx, user.id, ['reset_password', 'verify_email']);
      await this.mailer.send(tx, {
        to: user.email,
        kind: 'auth.password_changed',
        content: passwordChangedMail(true),
      });
    });
    // Whoever guessed at the old password before does not lock the owner out of the new one.
    await this.limits.reset(
      LOGIN_LIMITERS.email,
      found.email,
      this.login.maxFailures,
      this.login.windowSeconds,
    );
  }

  /** Changes the password of the signed-in user (the current one required) and ends their other sessions. */
  async change(principal: Principal, input: { currentPassword: string; newPassword: string }): Promise<void> {
    const session = sessionOf(principal);
    const user = await findUserById(this.db, session.userId);
    if (!user || user.deletionRequestedAt) throw errors.unauthorized();
    if (!user.passwordHash)
      throw errors.conflict(
        'This account has no password (it signs in through its identity provider); set one with a password reset',
      );
    await this.currentPassword.check(user.id, user.passwordHash, input.currentPassword, 'currentPassword');
    const weakness = passwordWeakness(input.newPassword, user.email);
    if (weakness) throw errors.validation([{ path: '/body/newPassword', message: weakness }]);
    const passwordHash = await this.passwords.hash(input.newPassword);
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      if (!(await credentials.lockLiveUser(tx, user.id))) throw errors.unauthorized();
      await credentials.setPasswordHash(tx, user.id, passwordHash, now, false);
      await credentials.revokeOtherSessions(tx, user.id, session.sessionId, now);
      await dropMailTokens(tx, user.id, ['reset_password']);
      await this.mailer.send(tx, {
        to: user.email,
        kind: 'auth.password_changed',
        content: passwordChangedMail(false),
      });
    });
  }
}
