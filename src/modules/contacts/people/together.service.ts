import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { contacts, teamMembers, teams, users } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { normaliseEmail } from '../../../shared/email.ts';
import { errors } from '../../../shared/errors.ts';
import { sessionOf } from '../../../shared/tenancy.ts';
import { isUserId, mayKnowSql } from '../known-people.ts';
import type { TogetherContext } from './together-context.ts';
import { TOGETHER_PARTS } from './together-parts.ts';

export type TogetherQuery = {
  contactId?: number | undefined;
  userId?: string | undefined;
  email?: string | undefined;
};

const TEAMS_LIMIT = 200;
const notFound = () => errors.notFound('person');

/** What the caller shares with another person: teams, and whatever each area adds (TOGETHER_PARTS). */
export class TogetherService {
  constructor(private readonly db: Db) {}

  async together(principal: Principal, query: TogetherQuery) {
    const callerId = sessionOf(principal).userId;
    const person = await this.person(principal, callerId, query);
    const shared = await this.db
      .select({ id: teams.id, name: teams.name })
      .from(teams)
      .where(
        sql`exists (select 1 from team_members a where a.team_id = ${teams.id} and a.user_id = ${callerId})
          and exists (select 1 from team_members b where b.team_id = ${teams.id} and b.user_id = ${person.id})`,
      )
      .orderBy(sql`lower(${teams.name})`, asc(teams.id))
      .limit(TEAMS_LIMIT);
    const ctx: TogetherContext = {
      db: this.db,
      callerId,
      personId: person.id,
      teamIds: shared.map((t) => t.id),
    };
    const keys = Object.keys(TOGETHER_PARTS) as (keyof typeof TOGETHER_PARTS)[];
    const values = await Promise.all(keys.map((key) => TOGETHER_PARTS[key].read(ctx)));
    const parts = Object.fromEntries(keys.map((key, i) => [key, values[i]])) as {
      [K in keyof typeof TOGETHER_PARTS]: Awaited<ReturnType<(typeof TOGETHER_PARTS)[K]['read']>>;
    };
    return { userId: person.id, name: person.name, teams: shared, ...parts };
  }

  /**
   * The person a query names (exactly one of contactId, userId, email), as a user the caller may know: a
   * contact of one of the caller's teams linked to a user, or a user who shares a team with the caller or
   * lets others find them. Anyone else, and anyone unknown, is 404 alike.
   */
  private async person(principal: Principal, callerId: string, q: TogetherQuery) {
    const given = [q.contactId, q.userId, q.email].filter((v) => v !== undefined).length;
    if (given !== 1)
      throw errors.validation([
        { path: '/query', message: 'give exactly one of contactId, userId or email' },
      ]);
    const person = { id: users.id, name: users.name };
    if (q.contactId !== undefined) {
      const [row] = await this.db
        .select(person)
        .from(contacts)
        .innerJoin(users, eq(users.id, contacts.userId))
        .innerJoin(
          teamMembers,
          and(eq(teamMembers.teamId, contacts.teamId), eq(teamMembers.userId, callerId)),
        )
        .where(eq(contacts.id, q.contactId))
        .limit(1);
      if (!row) throw notFound();
      return row;
    }
    if (q.userId !== undefined && !isUserId(q.userId)) throw notFound();
    const which =
      q.userId !== undefined
        ? eq(users.id, q.userId)
        : // An address names its user only once verified: anyone may sign up with any address.
          sql`lower(${users.email}) = ${normaliseEmail(q.email!)} and ${users.emailVerifiedAt} is not null`;
    const [row] = await this.db
      .select(person)
      .from(users)
      .where(and(which, mayKnowSql(principal, users.id)))
      .limit(1);
    if (!row) throw notFound();
    return row;
  }
}
