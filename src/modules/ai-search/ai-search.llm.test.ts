import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, useTestContext } from '../../../test/helpers/context.ts';
import { ChatCompletionsServer } from './fixtures/chat-completions-server.ts';

const QUERY = 'Spanish reggaeton from 2023 without features';
const VOCABULARY = { genres: ['Reggaeton', 'Pop'], languages: ['es', 'en'], tags: ['feat'] };

let model: ChatCompletionsServer;
const env: Record<string, string> = {};
// Runs before the context's own beforeAll: the app is built with the stand-in's address.
beforeAll(async () => {
  model = await ChatCompletionsServer.start();
  Object.assign(env, {
    AI_SEARCH_LLM_URL: model.url,
    AI_SEARCH_LLM_MODEL: 'tiny-model',
    AI_SEARCH_LLM_API_KEY: 'sk-test',
    AI_SEARCH_LLM_TIMEOUT_MS: '10000',
  });
});
afterAll(async () => {
  await model.close();
});
const ctx = useTestContext({ env });

async function ask(context: TestContext, payload: Record<string, unknown> = {}) {
  const user = await context.newUser();
  const res = await context.request({
    method: 'POST',
    url: '/api/v1/ai-search/tracks',
    token: user.token,
    payload: { query: QUERY, vocabulary: VOCABULARY, ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** What the parser alone reads in QUERY. */
const PARSED = {
  genres: { include: ['Reggaeton'], exclude: [] },
  languages: { include: ['es'], exclude: [] },
  tags: { include: [], exclude: ['feat'] },
  year: { min: 2023, max: 2023 },
};

describe('AI search with a language model configured', () => {
  it("uses the model's answer, checked against the vocabulary", async () => {
    model.behave({
      kind: 'answer',
      content: {
        filters: {
          genres: { include: ['REGGAETON', 'Dembow'] },
          languages: { include: ['es'] },
          tags: { exclude: ['feat'] },
          year: { min: 2023, max: 2023 },
        },
        matches: [{ filter: 'genres', value: 'Reggaeton', words: ['reggaeton'] }],
      },
    });
    const body = await ask(ctx);
    expect(body.provider).toBe('llm');
    expect(body.fallback).toBeUndefined();
    expect(body.filters).toMatchObject(PARSED);
    expect(body.matches).toContainEqual({
      filter: 'genres',
      value: 'Reggaeton',
      negated: false,
      words: ['reggaeton'],
      how: 'llm',
    });
    expect(body.ignored).toEqual([
      { words: ['Dembow'], reason: 'the language model named it, but it is not in the genres vocabulary' },
    ]);
    expect(model.lastPrompt()).toMatchObject({ sentence: QUERY, vocabulary: VOCABULARY });
  });

  it('keeps release types of an album answer only when they are types the albums have', async () => {
    model.behave({
      kind: 'answer',
      content: {
        filters: { types: { include: ['EP', 'mixtape'], exclude: ['single'] } },
        matches: [{ filter: 'types', value: 'ep', words: ['EPs'] }],
      },
    });
    const user = await ctx.newUser();
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/ai-search/albums',
      token: user.token,
      payload: { query: 'EPs or mixtapes, no singles', vocabulary: {} },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.provider).toBe('llm');
    expect(body.filters.types).toEqual({ include: ['ep'], exclude: ['single'] });
    expect(body.matches).toContainEqual({
      filter: 'types',
      value: 'ep',
      negated: false,
      words: ['EPs'],
      how: 'llm',
    });
    expect(body.ignored).toEqual([
      {
        words: ['mixtape'],
        reason: 'the language model named it, but it is not a release type (album, ep, single, compilation)',
      },
    ]);
    expect(model.lastPrompt()).toMatchObject({ searching: 'albums' });
    expect(model.lastPrompt().filters).toContain('types');
  });

  it('falls back to the parser when the model answers 500, garbage or the wrong shape', async () => {
    for (const [behaviour, reason] of [
      [{ kind: 'status', status: 500 }, 'error'],
      [{ kind: 'garbage' }, 'invalid'],
      [{ kind: 'answer', content: 'no idea, sorry' }, 'invalid'],
      [{ kind: 'answer', content: { filters: { year: { min: 2030, max: 2001 } } } }, 'invalid'],
    ] as const) {
      model.behave(behaviour);
      const body = await ask(ctx);
      expect(body.provider, reason).toBe('parser');
      expect(body.fallback).toBe(reason);
      expect(body.filters).toMatchObject(PARSED);
    }
  });

  it("applies the model's filters to the team's tracks", async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const patched = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/tracks/${track.id}`,
      token: team.owner.token,
      payload: { genre: 'Pop' },
    });
    expect(patched.statusCode).toBe(200);
    await ctx.newTrack(team);
    model.behave({ kind: 'answer', content: { filters: { genres: { include: ['pop'] } } } });
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/ai-search/tracks',
      token: team.owner.token,
      payload: { query: 'poppy stuff', vocabulary: VOCABULARY, teamId: team.id },
    });
    expect(res.json().provider).toBe('llm');
    expect(res.json().results.items.map((i: { id: number }) => i.id)).toEqual([track.id]);
  });

  describe('when the model is slow', () => {
    let slow: Awaited<ReturnType<typeof createTestContext>>;
    beforeAll(async () => {
      slow = await createTestContext({ env: { ...env, AI_SEARCH_LLM_TIMEOUT_MS: '200' } });
    });
    afterAll(async () => {
      await slow.close();
    });

    it('answers with the parser once the timeout passes', async () => {
      model.behave({ kind: 'silent' });
      const body = await ask(slow);
      expect(body.provider).toBe('parser');
      expect(body.fallback).toBe('timeout');
      expect(body.filters).toMatchObject(PARSED);
    });
  });
});
