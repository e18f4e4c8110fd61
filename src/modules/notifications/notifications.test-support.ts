import type { TestContext, TestTeam, TestUser } from '../../../test/helpers/context.ts';
import { chatHelpers } from '../chat/chat.test-support.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Helpers of the notifications and inbox tests: a team at work, through the API. */
export function workHelpers(ctx: TestContext) {
  /** A call as `user`; with `expected`, anything else throws. */
  async function call(method: Method, url: string, user: TestUser, payload?: object, expected?: number) {
    const res = await ctx.request({ method, url, token: user.token, ...(payload ? { payload } : {}) });
    if (expected !== undefined && res.statusCode !== expected)
      throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return { status: res.statusCode, body: res.body ? res.json() : null };
  }

  /** A thread every member of the team sees; answers its id. */
  async function teamThread(team: TestTeam): Promise<string> {
    const body = { type: 'team', teamIds: [team.id], name: `t${ctx.unique()}` };
    return (await call('POST', '/api/v1/chat/threads', team.owner, body, 201)).body.id;
  }

  /** Tells the team owner's assistant bot each of `reminders` ("remind me to … tomorrow"). */
  async function remind(team: TestTeam, ...reminders: string[]): Promise<void> {
    const opened = await call(
      'POST',
      '/api/v1/chat/bots/assistant/open',
      team.owner,
      { teamId: team.id },
      201,
    );
    for (const content of reminders) {
      const url = `/api/v1/chat/threads/${opened.body.id}/messages`;
      const message = await call('POST', url, team.owner, { content }, 201);
      // The assistant answers (and keeps the reminder) from a job.
      await chatHelpers(ctx).botAnswer(opened.body.id, team.owner, message.body.id);
    }
  }

  /** Invites `email` to the team's session as the team's owner; answers the participant. */
  async function inviteToSession(team: TestTeam, sessionId: number, email: string) {
    const url = `/api/v1/sessions/${sessionId}/participants`;
    return (await call('POST', url, team.owner, { email }, 201)).body as { id: number };
  }

  return { call, teamThread, remind, inviteToSession };
}
