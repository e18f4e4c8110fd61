import type { Db, DbTransaction } from '../../db/client.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { normaliseEmail } from '../../shared/email.ts';
import { errors } from '../../shared/errors.ts';
import { randomToken, sha256 } from '../../shared/hash.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import { confirmEmailChangeMail, emailChangedMail, verifyEmailMail } from './auth.mails.ts';
import { findUserById } from './auth.repository.ts';
import * as credentials from './credentials.repository.ts';
import type { CurrentPassword } from './current-password.ts';
import { dropMailTokens, replaceMailToken, spendMailToken } from './mail-tokens.repository.ts';

const HOUR_MS = 3_600_000;
/** How long a verification or address-change link works. */
export const VERIFY_EMAIL_TTL_HOURS = 48;
/** Verification mails (resends, address changes) a user may ask for per hour, each kind. */
export const VERIFICATION_MAILS_PER_HOUR = 3;
export const VERIFICATION_LIMITERS = {
  resend: 'verify-email:resend',
  change: 'verify-email:change',
} as const;

const taken = () => errors.conflict('An account with this e-mail already exists');

/** Proof that an address is the account's own: at sign-up, on request, and when the address changes. */
export class EmailVerification {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly limits: RateLimits,
    private readonly currentPassword: CurrentPassword,
  ) {}

  /** Queues the verification mail of a new account, in the transaction that creates it. */
  async sendVerification(tx: DbTransaction, user: { id: string; email: string }): Promise<void> {
    const token = await this.storeToken(tx, user.id, 'verify_email', user.email);
    await this.mailer.send(tx, {
      to: user.email,
      kind: 'auth.verify_email',
      content: verifyEmailMail(this.mailer.link('/verify-email', { token }), VERIFY_EMAIL_TTL_HOURS),
    });
  }

  /** A fresh verification link; earlier ones stop working. 409 once the address is verified. */
  async resend(principal: Principal): Promise<void> {
    const userId = sessionUserId(principal);
    const user = await findUserById(this.db, userId);
    if (!user || user.deletionRequestedAt) throw errors.unauthorized();
    if (user.emailVerifiedAt) throw errors.conflict('Your e-mail address is already verified');
    await this.takeMailPoint(VERIFICATION_LIMITERS.resend, userId);
    await this.db.transaction((tx) => this.sendVerification(tx, user));
  }

  /**
   * Sends a link to the new address; the account moves there only when it is opened. The current password
   * is required: an account without one (signed in through a provider) has its address from the provider.
   */
  async requestChange(principal: Principal, input: { email: string; password: string }) {
    const userId = sessionUserId(principal);
    const user = await findUserById(this.db, userId);
    if (!user || user.deletionRequestedAt) throw errors.unauthorized();
    if (!user.passwordHash)
      throw errors.conflict(
        'This account signs in through its identity provider, which owns its e-mail address: change it there',
      );
    await this.currentPassword.check(userId, user.passwordHash, input.password);
    const email = normaliseEmail(input.email);
    if (email === normaliseEmail(user.email)) throw errors.conflict('This is already your e-mail address');
    if (await credentials.emailTakenByOther(this.db, email, userId)) throw taken();
    await this.takeMailPoint(VERIFICATION_LIMITERS.change, userId);
    const expiresAt = await this.db.transaction(async (tx) => {
      const token = await this.storeToken(tx, userId, 'change_email', email);
      await this.mailer.send(tx, {
        to: email,
        kind: 'auth.change_email',
        content: confirmEmailChangeMail(this.mailer.link('/verify-email', { token }), VERIFY_EMAIL_TTL_HOURS),
      });
      return this.expiry();
    });
    return { pendingEmail: email, expiresAt };
  }

  /**
   * Spends a verification or address-change token. The first verifies the account's address (while it is
   * still the one the link was sent to); the second moves the account to the new address (409 when another
   * account took it meanwhile) and tells the former address.
   */
  async verify(token: string) {
    const now = this.clock.now();
    try {
      return await this.db.transaction(async (tx) => {
        const spent = await spendMailToken(tx, sha256(token), now);
        if (!spent || spent.purpose === 'reset_password') throw errors.invalidToken();
        const user = await credentials.lockLiveUser(tx, spent.userId);
        if (!user) throw errors.invalidToken();
        if (spent.purpose === 'verify_email') {
          if (normaliseEmail(user.email) !== spent.email) throw errors.invalidToken();
          await credentials.markEmailVerified(tx, user.id, now);
          return { purpose: spent.purpose, email: user.email };
        }
        if (await credentials.emailTakenByOther(tx, spent.email, user.id)) throw taken();
        await credentials.setEmail(tx, user.id, spent.email, now);
        // Links sent to the former address no longer speak for the account.
        await dropMailTokens(tx, user.id, ['verify_email', 'change_email', 'reset_password']);
        await this.mailer.send(tx, {
          to: user.email,
          kind: 'auth.email_changed',
          content: emailChangedMail(spent.email),
        });
        return { purpose: spent.purpose, email: spent.email };
      });
    } catch (error) {
      if (sqlState(error) === '23505') throw taken();
      throw error;
    }
  }

  private async storeToken(
    tx: DbTransaction,
    userId: string,
    purpose: 'verify_email' | 'change_email',
    email: string,
  ): Promise<string> {
    const token = randomToken(32);
    await replaceMailToken(
      tx,
      {
        tokenHash: sha256(token),
        userId,
        purpose,
        email: normaliseEmail(email),
        expiresAt: this.expiry(),
      },
      this.clock.now(),
    );
    return token;
  }

  private expiry(): Date {
    return new Date(this.clock.now().getTime() + VERIFY_EMAIL_TTL_HOURS * HOUR_MS);
  }

  private async takeMailPoint(limiter: string, userId: string): Promise<void> {
    const result = await this.limits.consume(limiter, userId, VERIFICATION_MAILS_PER_HOUR, 3600);
    if (!result.allowed) throw errors.rateLimited(result.resetSeconds);
  }
}
