import { asc, eq } from 'drizzle-orm';
import type { TestContext, TestTeam, TestUser } from '../../../test/helpers/context.ts';
import { domainEvents } from '../../db/schema/index.ts';

/** A JSON answer, read loosely: tests check what they use. */
type Json = ReturnType<typeof JSON.parse>;

const ANSWER_WAIT_MS = 5_000;

/** Chat data made through the API, as clients make it. */
export function chatHelpers(ctx: TestContext) {
  async function call(method: string, url: string, user: TestUser, payload?: object) {
    const res = await ctx.request({
      method: method as 'GET',
      url,
      token: user.token,
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: res.statusCode, body: (res.body ? res.json() : null) as Json };
  }

  async function expectOk(method: string, url: string, user: TestUser, payload?: object): Promise<Json> {
    const res = await call(method, url, user, payload);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** A thread of `team` made by `by` (the team's owner by default): a team thread unless told otherwise. */
  function newThread(
    team: TestTeam,
    options: { type?: string; name?: string; memberIds?: string[]; by?: TestUser; teamIds?: number[] } = {},
  ): Promise<Json> {
    const { by = team.owner, type = 'team', teamIds = [team.id], ...rest } = options;
    const name = rest.name ?? (type === 'direct' ? undefined : `${type} thread`);
    return expectOk('POST', '/api/v1/chat/threads/', by, {
      type,
      teamIds,
      ...(name === undefined ? {} : { name }),
      ...(rest.memberIds ? { memberIds: rest.memberIds } : {}),
    });
  }

  function post(threadId: string, user: TestUser, content = 'hello'): Promise<Json> {
    return expectOk('POST', `/api/v1/chat/threads/${threadId}/messages`, user, { content });
  }

  /**
   * The bot's answer to the message `messageId` of a bot thread: runs the due jobs and reads the thread's
   * newest messages until it is there, for a few seconds at most.
   */
  async function botAnswer(threadId: string, user: TestUser, messageId: string): Promise<Json> {
    const deadline = Date.now() + ANSWER_WAIT_MS;
    for (;;) {
      await ctx.app.services.jobs.runDue();
      const page = await expectOk('GET', `/api/v1/chat/threads/${threadId}/messages?limit=5`, user);
      const answer = page.items.find((m: Json) => m.botId !== null && m.id > messageId);
      if (answer) return answer;
      if (Date.now() > deadline) throw new Error(`no answer to message ${messageId} in ${ANSWER_WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The events recorded about one subject (a thread, a message, a task), in the order they were committed. */
  function eventsAbout(subjectId: string) {
    return ctx.database.db
      .select()
      .from(domainEvents)
      .where(eq(domainEvents.subjectId, subjectId))
      .orderBy(asc(domainEvents.position));
  }

  return { call, expectOk, newThread, post, botAnswer, eventsAbout };
}
