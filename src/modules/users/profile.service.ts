import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { pageOfList } from '../../shared/pagination.ts';
import { requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import { findUserById } from '../auth/auth.repository.ts';
import * as repo from './users.repository.ts';

/** The signed-in user's own account: profile, sign-in methods, default team, flags, app-open stamp. */
export class ProfileService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(principal: Principal) {
    const profile = await repo.findProfile(this.db, sessionUserId(principal));
    if (!profile) throw errors.unauthorized();
    return profile;
  }

  async update(principal: Principal, input: { name: string | null }) {
    await this.change(principal, { name: input.name });
    return this.get(principal);
  }

  /** How the user signs in: a password, an external OpenID Connect identity, or both. */
  async identities(principal: Principal, page: { limit: number; cursor?: string | undefined }) {
    const user = await findUserById(this.db, sessionUserId(principal));
    if (!user) throw errors.unauthorized();
    const { email, createdAt } = user;
    const items: {
      provider: 'password' | 'oidc';
      issuer?: string;
      subject?: string;
      email: string;
      createdAt: Date;
    }[] = [];
    if (user.passwordHash) items.push({ provider: 'password', email, createdAt });
    if (user.externalSubject) {
      // Stored as `issuer|subject`; issuers are URLs, which never contain `|`.
      const split = user.externalSubject.indexOf('|');
      const issuer = user.externalSubject.slice(0, split);
      const subject = user.externalSubject.slice(split + 1);
      items.push({ provider: 'oidc', issuer, subject, email, createdAt });
    }
    return pageOfList(items, page, {
      key: (identity): [number] => [identity.provider === 'password' ? 0 : 1],
      shape: ['number'],
    });
  }

  async setDefaultTeam(principal: Principal, teamId: number | null) {
    if (teamId !== null) await requireTeam(this.db, principal, teamId);
    await this.change(principal, { defaultTeamId: teamId });
    return this.get(principal);
  }

  async setZeroDataRetention(principal: Principal, enabled: boolean) {
    const row = await this.change(principal, { zeroDataRetention: enabled });
    return { enabled: row.zeroDataRetention };
  }

  async appOpened(principal: Principal) {
    const now = this.clock.now();
    await this.change(principal, { lastAppOpenedAt: now });
    return { lastAppOpenedAt: now };
  }

  private async change(principal: Principal, values: repo.UserUpdate) {
    const row = await repo.updateUser(this.db, sessionUserId(principal), values, this.clock.now());
    if (!row) throw errors.unauthorized();
    return row;
  }
}
