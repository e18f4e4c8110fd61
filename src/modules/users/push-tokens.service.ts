import type { Db } from '../../db/client.ts';
import type { PushPlatform } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sha256 } from '../../shared/hash.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import * as repo from './push-tokens.repository.ts';

/** Device push tokens of the signed-in user; registration and removal are both idempotent. */
export class PushTokensService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** `created` is true when the token was not the caller's before (new, or taken over from another user). */
  async register(principal: Principal, input: { token: string; platform: PushPlatform }) {
    const { row, created } = await repo.upsertPushToken(this.db, {
      userId: sessionUserId(principal),
      token: input.token,
      tokenHash: sha256(input.token),
      platform: input.platform,
      now: this.clock.now(),
    });
    const { id, token, platform, createdAt, lastSeenAt } = row;
    return { created, pushToken: { id, token, platform, createdAt, lastSeenAt } };
  }

  async remove(principal: Principal, token: string): Promise<void> {
    await repo.deletePushToken(this.db, sessionUserId(principal), sha256(token));
  }
}
