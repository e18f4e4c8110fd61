import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { users } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { normaliseEmail } from '../../../shared/email.ts';
import { errors } from '../../../shared/errors.ts';
import type { RateLimits } from '../../../shared/rate-limits.ts';
import { requireTeam } from '../../../shared/tenancy.ts';
import { mayKnowSql } from '../known-people.ts';

/** Addresses one caller may look up per hour: enough for an address book, too few to sweep for accounts. */
export const LOOKUPS_PER_HOUR = 500;
const LIMIT_NAME = 'contacts_platform_users';
const WINDOW_SECONDS = 3600;

/** Who a lookup is counted for: a user across all their sessions; every key of a team together. */
const budgetOf = (principal: Principal) =>
  principal.type === 'key' ? `team:${principal.teamId}` : `user:${principal.userId}`;

/** Which e-mail addresses belong to platform users the caller may know. */
export class PlatformUsersService {
  constructor(
    private readonly db: Db,
    private readonly limits: RateLimits,
  ) {}

  /**
   * Answers each address: a user the caller may know, or not. Unknown addresses, users who are hidden from
   * the caller, and addresses not verified (anyone may sign up with any address) answer alike. Every distinct address counts against the caller's hourly budget; a
   * request over it is 429 and counts nothing.
   */
  async lookup(principal: Principal, input: { teamId: number; emails: string[] }) {
    await requireTeam(this.db, principal, input.teamId);
    const normalised = input.emails.map(normaliseEmail);
    const distinct = [...new Set(normalised)];
    const key = budgetOf(principal);
    const taken = await this.limits.consume(
      LIMIT_NAME,
      key,
      LOOKUPS_PER_HOUR,
      WINDOW_SECONDS,
      distinct.length,
    );
    if (!taken.allowed) {
      await this.limits.refund(LIMIT_NAME, key, LOOKUPS_PER_HOUR, WINDOW_SECONDS, distinct.length);
      throw errors.rateLimited(taken.resetSeconds);
    }
    const found = await this.db
      .select({ id: users.id, email: sql<string>`lower(${users.email})`, name: users.name })
      .from(users)
      .where(
        sql`lower(${users.email}) = any(${sql.param(distinct)}::text[]) and ${users.emailVerifiedAt} is not null
          and ${mayKnowSql(principal, users.id)}`,
      );
    const byEmail = new Map(found.map((u) => [u.email, u]));
    return {
      results: input.emails.map((email, i) => {
        const user = byEmail.get(normalised[i]!);
        return { email, isPlatformUser: !!user, userId: user?.id ?? null, name: user?.name ?? null };
      }),
    };
  }
}
