import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { errors } from '../../shared/errors.ts';
import { randomToken, sha256 } from '../../shared/hash.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import type { AccessTokens } from './access-tokens.ts';
import * as repo from './auth.repository.ts';
import { passwordWeakness } from './password-policy.ts';
import type { Passwords } from './passwords.ts';

export type ClientInfo = { ip: string; userAgent: string | undefined };

const DAY_MS = 86_400_000;
const LOGIN = 'login';

/** The built-in identity provider: sign-up, sign-in, refresh-token rotation, sign-out. */
export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly tokens: AccessTokens,
    private readonly limits: RateLimits,
    private readonly settings: Config['auth'],
    private readonly passwords: Passwords,
  ) {}

  async signup(input: { email: string; password: string; name?: string }, client: ClientInfo) {
    const weakness = passwordWeakness(input.password, input.email);
    if (weakness) throw errors.validation([{ path: '/body/password', message: weakness }]);
    const passwordHash = await this.passwords.hash(input.password);
    try {
      const user = await repo.insertUser(this.db, {
        email: input.email,
        name: input.name ?? null,
        passwordHash,
      });
      return this.openSession(user, client);
    } catch (error) {
      if (sqlState(error) === '23505') throw errors.conflict('An account with this e-mail already exists');
      throw error;
    }
  }

  /**
   * Each attempt takes a point from its e-mail's and its client address's failure budgets before the
   * password is checked, so a burst of parallel guesses cannot slip past the limit; a success gives the
   * points back (the e-mail's count starts over).
   */
  async login(input: { email: string; password: string }, client: ClientInfo) {
    const window = this.settings.loginFailureWindowSeconds;
    const byEmail = { key: `email:${input.email.toLowerCase()}`, points: this.settings.loginMaxFailures };
    const byIp = { key: `ip:${client.ip}`, points: this.settings.loginMaxFailures * 4 };
    const taken = await Promise.all(
      [byEmail, byIp].map((b) => this.limits.consume(LOGIN, b.key, b.points, window)),
    );
    const refused = taken.filter((result) => !result.allowed);
    if (refused.length > 0) throw errors.rateLimited(Math.max(...refused.map((r) => r.resetSeconds)));

    const user = await repo.findUserByEmail(this.db, input.email);
    const ok = await this.passwords.verify(user?.passwordHash, input.password);
    if (!ok || !user || user.deletionRequestedAt) throw errors.unauthorized();
    await Promise.all([
      this.limits.reset(LOGIN, byEmail.key, byEmail.points, window),
      this.limits.refund(LOGIN, byIp.key, byIp.points, window),
    ]);
    return this.openSession(user, client);
  }

  async refresh(refreshToken: string) {
    const now = this.clock.now();
    const spentHash = sha256(refreshToken);
    const found = await repo.findRefreshToken(this.db, spentHash);
    if (!found || found.revokedAt || found.expiresAt <= now) throw errors.unauthorized();
    const next = randomToken(32);
    const rotated =
      !found.usedAt &&
      (await repo.rotateRefreshToken(this.db, spentHash, sha256(next), found.sessionId, now));
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
    const userId = sessionUserId(principal);
    const [user, memberships] = await Promise.all([
      repo.findUserById(this.db, userId),
      repo.listMemberships(this.db, userId),
    ]);
    if (!user) throw errors.unauthorized();
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      createdAt: user.createdAt,
      teams: memberships.map((m) => ({ id: m.teamId, name: m.name, role: m.role })),
    };
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
    return this.tokenResponse(user, sessionId, refreshToken);
  }

  private async tokenResponse(user: repo.UserRow, sessionId: string, refreshToken: string) {
    return {
      access_token: await this.tokens.issue(user.id, sessionId),
      refresh_token: refreshToken,
      token_type: 'Bearer' as const,
      expires_in: this.tokens.ttlSeconds,
      user: { id: user.id, email: user.email, name: user.name },
    };
  }
}
