import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { confirmedRead, type Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { normaliseEmail } from '../../shared/email.ts';
import { errors } from '../../shared/errors.ts';
import { randomToken, sha256 } from '../../shared/hash.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import { sessionOf } from '../../shared/tenancy.ts';
import type { AccessTokens } from './access-tokens.ts';
import * as repo from './auth.repository.ts';
import type { EmailVerification } from './email-verification.ts';
import { passwordWeakness } from './password-policy.ts';
import type { Passwords } from './passwords.ts';

export type ClientInfo = { ip: string; userAgent: string | undefined };

const DAY_MS = 86_400_000;
/** The login failure budgets: per client address, and per normalised e-mail. */
export const LOGIN_LIMITERS = { address: 'login:address', email: 'login:email' } as const;
type Budget = { name: string; key: string; points: number };

/** The built-in identity provider: sign-up, sign-in, refresh-token rotation, sign-out. */
export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly tokens: AccessTokens,
    private readonly limits: RateLimits,
    private readonly settings: Config['auth'],
    private readonly passwords: Passwords,
    private readonly verification: EmailVerification,
  ) {}

  async signup(input: { email: string; password: string; name?: string }, client: ClientInfo) {
    const weakness = passwordWeakness(input.password, input.email);
    if (weakness) throw errors.validation([{ path: '/body/password', message: weakness }]);
    const passwordHash = await this.passwords.hash(input.password);
    try {
      const user = await this.db.transaction(async (tx) => {
        const created = await repo.insertUser(tx, {
          email: input.email,
          name: input.name ?? null,
          passwordHash,
        });
        await this.verification.sendVerification(tx, created);
        return created;
      });
      return this.openSession(user, client);
    } catch (error) {
      if (sqlState(error) === '23505') throw errors.conflict('An account with this e-mail already exists');
      throw error;
    }
  }

  /**
   * An attempt takes a point from its client address's failure budget, then (only if the address is not
   * refused, so a refused address stores nothing per e-mail) from its normalised e-mail's budget, before
   * the password is checked: a burst of parallel guesses cannot slip past the limit. A success gives its
   * points back (the e-mail's count starts over), so only failures use the budgets up.
   */
  async login(input: { email: string; password: string }, client: ClientInfo) {
    const email = normaliseEmail(input.email);
    const max = this.settings.loginMaxFailures;
    const byAddress = { name: LOGIN_LIMITERS.address, key: client.ip, points: max * 4 };
    const byEmail = { name: LOGIN_LIMITERS.email, key: email, points: max };
    await this.takeLoginPoint(byAddress);
    await this.takeLoginPoint(byEmail);

    const user = await repo.findUserByEmail(this.db, email);
    const ok = await this.passwords.verify(user?.passwordHash, input.password);
    if (!ok || !user || user.deletionRequestedAt) throw errors.unauthorized();
    const window = this.settings.loginFailureWindowSeconds;
    await Promise.all([
      this.limits.reset(byEmail.name, byEmail.key, byEmail.points, window),
      this.limits.refund(byAddress.name, byAddress.key, byAddress.points, window),
    ]);
    return this.openSession(user, client);
  }

  /** Counts one login attempt against a budget; 429 once the budget is spent. */
  private async takeLoginPoint({ name, key, points }: Budget): Promise<void> {
    const taken = await this.limits.consume(name, key, points, this.settings.loginFailureWindowSeconds);
    if (!taken.allowed) throw errors.rateLimited(taken.resetSeconds);
  }

  /** Rotates the token; the session's last use (time, client address) is stamped with the rotation. */
  async refresh(refreshToken: string, client: ClientInfo) {
    const now = this.clock.now();
    const spentHash = sha256(refreshToken);
    const found = await repo.findRefreshToken(this.db, spentHash);
    if (!found || found.revokedAt || found.expiresAt <= now) throw errors.unauthorized();
    const next = randomToken(32);
    const rotated =
      !found.usedAt &&
      (await repo.rotateRefreshToken(this.db, spentHash, sha256(next), found.sessionId, now, client.ip));
    if (!rotated) {
      // A spent token came back: someone holds a copy. End the whole family.
      await repo.revokeSession(this.db, found.sessionId, now);
      throw errors.unauthorized();
    }
    const user = await repo.findUserById(this.db, found.userId);
    if (!user || user.deletionRequestedAt) throw errors.unauthorized();
    return this.tokenResponse(user, found.sessionId, next);
  }

  async logout(principal: Principal): Promise<void> {
    if (principal.type !== 'session') throw errors.sessionRequired();
    await repo.revokeSession(this.db, principal.sessionId, this.clock.now());
  }

  async me(principal: Principal) {
    const row = await repo.readMe(this.db, sessionOf(principal), this.clock.now());
    return confirmedRead(principal, row, () => errors.unauthorized());
  }

  private async openSession(user: repo.UserRow, client: ClientInfo) {
    const refreshToken = randomToken(32);
    const sessionId = await repo.insertSession(this.db, {
      userId: user.id,
      expiresAt: new Date(this.clock.now().getTime() + this.settings.refreshTokenTtlDays * DAY_MS),
      refreshTokenHash: sha256(refreshToken),
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      ip: client.ip,
    });
    // The account's deletion was requested after it was read.
    if (!sessionId) throw errors.unauthorized();
    return this.tokenResponse(user, sessionId, refreshToken);
  }

  private async tokenResponse(user: repo.UserRow, sessionId: string, refreshToken: string) {
    return {
      access_token: await this.tokens.issue(user.id, sessionId),
      refresh_token: refreshToken,
      token_type: 'Bearer' as const,
      expires_in: this.tokens.ttlSeconds,
      user: { id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerifiedAt !== null },
    };
  }
}
