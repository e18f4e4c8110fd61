import { asc, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestContext, TestTeam } from '../../../test/helpers/context.ts';
import { teamEvents } from '../../../test/helpers/events.ts';
import { contactEvents, contacts } from '../../db/schema/index.ts';

export { expectValidationPaths } from '../financials/financials.test-support.ts';

type Fields = Record<string, unknown>;
type JsonResponse = { statusCode: number; body: string; json(): { code: string } };

/** Helpers of the contacts tests: contacts and groups through the API, and what the database holds. */
export function contactHelpers(ctx: TestContext) {
  const db = () => ctx.database.db;

  const post = (token: string, payload: object) =>
    ctx.request({ method: 'POST', url: '/api/v1/contacts/', token, payload });
  const get = (url: string, token: string) => ctx.request({ method: 'GET', url, token });
  const patch = (id: number, token: string, payload: object) =>
    ctx.request({ method: 'PATCH', url: `/api/v1/contacts/${id}`, token, payload });

  /** Creates a contact through the API (as the team's owner unless `token` is given); answers it. */
  async function newContact(team: TestTeam, fields: Fields = {}, token = team.owner.token) {
    const res = await post(token, { team_id: team.id, name: 'Maya Lind', ...fields });
    if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  async function newGroup(team: TestTeam, name: string): Promise<number> {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/contacts/groups',
      token: team.owner.token,
      payload: { teamId: team.id, name },
    });
    if (res.statusCode !== 201) throw new Error(`group failed: ${res.statusCode} ${res.body}`);
    return res.json().id;
  }

  /** The kinds and data of a contact's events, oldest first. */
  function eventsOf(contactId: number) {
    return db()
      .select({ kind: contactEvents.kind, data: contactEvents.data })
      .from(contactEvents)
      .where(eq(contactEvents.contactId, contactId))
      .orderBy(asc(contactEvents.id));
  }

  /** The events of the team in the log, oldest first. */
  const logOf = (team: TestTeam) => teamEvents(db(), team.id);

  async function contactCount(team: TestTeam): Promise<number> {
    const [row] = await db()
      .select({ n: sql<number>`count(*)::integer` })
      .from(contacts)
      .where(eq(contacts.teamId, team.id));
    return row!.n;
  }

  return { post, get, patch, newContact, newGroup, eventsOf, logOf, contactCount };
}

/** 409 conflict. */
export function expectConflict(res: JsonResponse) {
  expect(res.statusCode, res.body).toBe(409);
  expect(res.json().code).toBe('conflict');
}
