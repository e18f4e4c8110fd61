import type { Db } from '../../db/client.ts';
import type { Principal, Scope } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { growingLru } from '../../shared/growing-lru.ts';
import { randomToken, sha256 } from '../../shared/hash.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import { MANAGERS, requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import type { Departures } from '../memberships/departures.ts';
import { lockTeam } from '../teams/teams.repository.ts';
import * as repo from './api-keys.repository.ts';

const LAST_USED_RESOLUTION_MS = 60_000;
const RECALL_TTL_MS = 60_000;

export type ApiKeyView = {
  id: number;
  teamId: number;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
};

function view(row: repo.ApiKeyRow): ApiKeyView {
  const { id, teamId, name, prefix, scopes, expiresAt, lastUsedAt, createdBy, createdAt } = row;
  return { id, teamId, name, prefix, scopes, expiresAt, lastUsedAt, createdBy, createdAt };
}

/** Team API keys: creation (raw key shown once), listing, revocation, and verification of presented keys. */
export class ApiKeysService {
  private readonly lastTouched = new Map<number, number>();
  /** Keys verified lately, by hash. */
  private readonly seen = growingLru<string, Extract<Principal, { type: 'key' }>>({
    maxEntries: 10_000,
    ttl: RECALL_TTL_MS,
  });

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly keyPrefix: string,
    private readonly departures: Departures,
  ) {}

  /** True when a bearer token has the shape of a team API key (it is then never tried as a JWT). */
  isApiKey(token: string): boolean {
    return token.startsWith(`${this.keyPrefix}_`);
  }

  async create(
    principal: Principal,
    teamId: number,
    input: { name: string; scopes: Scope[]; expiresAt?: string },
  ) {
    const userId = sessionUserId(principal);
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    const key = `${this.keyPrefix}_live_${randomToken(24)}`;
    // The team lock orders this against role changes and departures, which revoke the creator's keys.
    const row = await this.db.transaction(async (tx) => {
      await lockTeam(tx, teamId);
      await requireTeam(tx, principal, teamId, MANAGERS);
      if (expiresAt && expiresAt <= this.clock.now()) {
        throw errors.validation([{ path: '/body/expiresAt', message: 'must be in the future' }]);
      }
      return repo.insertApiKey(tx, {
        teamId,
        name: input.name,
        prefix: key.slice(0, this.keyPrefix.length + 10),
        keyHash: sha256(key),
        scopes: [...new Set(input.scopes)],
        expiresAt,
        createdBy: userId,
      });
    });
    return { ...view(row), key };
  }

  async list(principal: Principal, teamId: number, limit: number, cursor?: string) {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    const rows = await repo.listApiKeys(this.db, teamId, limit + 1, decodeIdCursor(cursor));
    const page = toPage(rows, limit, (last) => last.id);
    return { items: page.items.map(view), nextCursor: page.nextCursor };
  }

  async revoke(principal: Principal, teamId: number, keyId: number): Promise<void> {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    const at = this.clock.now();
    await this.db.transaction(async (tx) => {
      const key = await repo.revokeApiKey(tx, teamId, keyId, at);
      if (!key) throw errors.notFound('API key');
      await this.departures.keysRevoked(tx, { keys: [key], reason: 'revoked', at });
    });
  }

  /** The principal of a live key, or null; checked against the database on every request so revocation is immediate. */
  async verify(rawKey: string): Promise<Principal | null> {
    const now = this.clock.now();
    const hash = sha256(rawKey);
    const row = await repo.findLiveKeyByHash(this.db, hash, now);
    if (!row) {
      this.seen.delete(hash);
      return null;
    }
    this.touch(row.id, now);
    const principal: Principal = {
      type: 'key',
      teamId: row.teamId,
      keyId: row.id,
      scopes: row.scopes as Scope[],
      requestsPerMinute: row.requestsPerMinute,
    };
    this.seen.set(hash, principal);
    return principal;
  }

  /**
   * A key verified lately, from memory and `unconfirmed`: for reads that look its revocation up in their own
   * statement. A key not seen lately is verified as usual. Its team's plan (the rate limit) may be up to
   * a minute old.
   */
  async recall(rawKey: string): Promise<Principal | null> {
    const seen = this.seen.get(sha256(rawKey));
    if (!seen) return this.verify(rawKey);
    this.touch(seen.keyId, this.clock.now());
    return { ...seen, unconfirmed: true };
  }

  /** Whether the key is still live (not revoked, not expired). */
  async isLive(keyId: number): Promise<boolean> {
    return repo.isKeyLive(this.db, keyId, this.clock.now());
  }

  // Last use is kept to the minute, written at most once a minute per key and never on the request's path.
  private touch(keyId: number, now: Date): void {
    const last = this.lastTouched.get(keyId) ?? 0;
    if (now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(keyId, now.getTime());
    repo.touchApiKey(this.db, keyId, now).catch(() => this.lastTouched.delete(keyId));
  }
}
