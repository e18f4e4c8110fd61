import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestTeam } from '../../../../test/helpers/context.ts';
import { ChatCompletionsServer } from '../../ai-search/fixtures/chat-completions-server.ts';
import { chatHelpers } from '../chat.test-support.ts';

let llm: ChatCompletionsServer;
let ctx: TestContext & { close(): Promise<void> };
let team: TestTeam;

beforeAll(async () => {
  llm = await ChatCompletionsServer.start();
  ctx = await createTestContext({
    env: { AI_SEARCH_LLM_URL: llm.url, AI_SEARCH_LLM_MODEL: 'test-model', AI_SEARCH_LLM_TIMEOUT_MS: '500' },
  });
  team = await ctx.newTeam();
});

afterAll(async () => {
  await ctx?.close();
  await llm?.close();
});

describe('bots and drafts with a configured model', () => {
  it('lets the model write drafts, with the template when it fails', async () => {
    const { call } = chatHelpers(ctx);
    const body = {
      teamId: team.id,
      kind: 'thank_you',
      person: 'Maya',
      network: 'instagram',
      messages: [{ fromMe: false, text: 'Great show!' }],
    };
    llm.behave({ kind: 'answer', content: 'Thanks so much, Maya!' });
    const res = await call('POST', '/api/v1/follow-ups/draft', team.owner, body);
    expect(res.body).toEqual({ draft: 'Thanks so much, Maya!', provider: 'llm' });
    const prompt = llm.lastPrompt();
    expect(prompt).toMatchObject({ kind: 'thank_you', person: 'Maya', messages: [{ text: 'Great show!' }] });

    llm.behave({ kind: 'status', status: 500 });
    const fallback = await call('POST', '/api/v1/follow-ups/draft', team.owner, body);
    expect(fallback.body.provider).toBe('template');
    expect(fallback.body.draft).toContain('Maya');
  });

  it('lets the model word the bot’s reply, with the offline reply on failure', async () => {
    const { call, expectOk, botAnswer } = chatHelpers(ctx);
    const threadId = (await call('POST', '/api/v1/chat/bots/assistant/open', team.owner, { teamId: team.id }))
      .body.id;
    llm.behave({ kind: 'answer', content: 'Sure thing! Maya on Instagram, noted.' });
    const reminder = await expectOk('POST', `/api/v1/chat/threads/${threadId}/messages`, team.owner, {
      content: 'remind me to follow up with Maya on Instagram tomorrow',
    });
    expect(await botAnswer(threadId, team.owner, reminder.id)).toMatchObject({
      botId: 'assistant',
      content: 'Sure thing! Maya on Instagram, noted.',
    });
    expect(llm.lastPrompt()).toMatchObject({ draftReply: expect.stringContaining('Maya') });

    llm.behave({ kind: 'silent' });
    const list = await expectOk('POST', `/api/v1/chat/threads/${threadId}/messages`, team.owner, {
      content: 'list my follow-ups',
    });
    expect((await botAnswer(threadId, team.owner, list.id)).content).toContain('Your open follow-ups');
  });
});
