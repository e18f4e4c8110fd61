import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { randomToken, sha256 } from '../../shared/hash.ts';
import { applePass } from './apple-pass.ts';
import { googleSaveUrl } from './google-pass.ts';
import type { WalletIdentity } from './identity.ts';
import type { WalletSettings } from './wallet.config.ts';
import { type WalletPlatform, walletErrors } from './wallet.errors.ts';
import * as repo from './wallet.repository.ts';

export const WALLET_TOKEN_TTL_MS = 5 * 60 * 1000;

export const WALLET_PLATFORMS: readonly WalletPlatform[] = ['apple', 'google'];

export type WalletPass = { platform: 'apple'; pkpass: Buffer } | { platform: 'google'; saveUrl: string };

function holderOf(principal: Principal): repo.Holder {
  return principal.type === 'session'
    ? { userId: principal.userId, apiKeyId: null }
    : { userId: null, apiKeyId: principal.keyId };
}

/** Identity passes for Apple and Google Wallet, fetched with a one-time token the caller asked for first. */
export class WalletService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: WalletSettings,
  ) {}

  /** Which platforms can issue passes here, and a fresh one-time token (valid 5 minutes) to fetch one. */
  async issue(principal: Principal) {
    const token = randomToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + WALLET_TOKEN_TTL_MS);
    await repo.insertToken(this.db, holderOf(principal), sha256(token), now, expiresAt);
    return {
      platforms: WALLET_PLATFORMS.map((platform) => ({ platform, available: this.available(platform) })),
      token,
      expiresAt,
    };
  }

  /**
   * The pass, using up the token. The token is checked first, so a bad one is refused whatever is
   * configured; with the platform not configured it is left unused (503).
   */
  async pass(principal: Principal, platform: WalletPlatform, token: string): Promise<WalletPass> {
    const holder = holderOf(principal);
    const [hash, now] = [sha256(token), this.clock.now()];
    const { apple, google, organizationName } = this.settings;
    if (!this.available(platform)) {
      if (!(await repo.tokenIsUsable(this.db, holder, hash, now))) throw walletErrors.tokenInvalid();
      throw walletErrors.unavailable(platform);
    }
    if (!(await repo.useToken(this.db, holder, hash, now))) throw walletErrors.tokenInvalid();
    const identity = await this.identityOf(holder);
    if (platform === 'apple') return { platform, pkpass: applePass(apple!, organizationName, identity) };
    return { platform, saveUrl: await googleSaveUrl(google!, organizationName, identity, now) };
  }

  private available(platform: WalletPlatform): boolean {
    return this.settings[platform] !== undefined;
  }

  private async identityOf(holder: repo.Holder): Promise<WalletIdentity> {
    if (holder.userId !== null) {
      const user = await repo.findUser(this.db, holder.userId);
      if (!user) throw errors.unauthorized();
      return { subject: `user-${user.id}`, name: user.name ?? user.email, detail: user.email };
    }
    const key = await repo.findKeyTeam(this.db, holder.apiKeyId);
    if (!key) throw errors.unauthorized();
    return { subject: `team-${key.teamId}`, name: key.teamName, detail: key.keyName };
  }
}
