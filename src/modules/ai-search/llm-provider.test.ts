import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { ChatCompletionsServer } from './fixtures/chat-completions-server.ts';
import { SEARCH_KINDS } from './kinds.ts';
import { LlmProvider } from './llm-provider.ts';
import type { ParseContext } from './parser.ts';

const context: ParseContext = {
  kind: 'tracks',
  query: 'Spanish reggaeton from 2023 without features',
  vocabulary: { genres: ['Reggaeton', 'Pop'], languages: ['es', 'en'], tags: ['feat'] },
  statuses: SEARCH_KINDS.tracks.defaultStatuses,
  today: new Date('2026-06-01T00:00:00Z'),
};

const GOOD = {
  filters: {
    genres: { include: ['reggaeton'], exclude: [] },
    languages: { include: ['es'] },
    tags: { exclude: ['feat'] },
    year: { min: 2023, max: 2023 },
    bpm: null,
  },
  matches: [
    { filter: 'genres', value: 'Reggaeton', negated: false, words: ['reggaeton'] },
    { filter: 'languages', value: 'es', negated: false, words: ['Spanish', 'invented'] },
    { filter: 'year', value: null, words: ['from 2023'] },
  ],
};

let server: ChatCompletionsServer;
beforeAll(async () => {
  server = await ChatCompletionsServer.start();
});
afterAll(async () => {
  await server.close();
});

const provider = (timeoutMs = 10_000, apiKey: string | null = 'sk-test') =>
  new LlmProvider({ url: server.url, model: 'tiny-model', apiKey: apiKey ?? undefined, timeoutMs });

describe('the language-model provider', () => {
  it('sends the query, vocabulary, statuses and date, and uses a good answer respelled as the vocabulary', async () => {
    server.behave({ kind: 'answer', content: GOOD });
    const outcome = await provider().interpret(context);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { filters, matches, ignored } = outcome.interpretation;
    expect(filters.genres).toEqual({ include: ['Reggaeton'], exclude: [] });
    expect(filters.languages).toEqual({ include: ['es'], exclude: [] });
    expect(filters.tags).toEqual({ include: [], exclude: ['feat'] });
    expect(filters.year).toEqual({ min: 2023, max: 2023 });
    expect(filters.bpm).toBeNull();
    expect(ignored).toEqual([]);
    expect(matches).toContainEqual({
      filter: 'languages',
      value: 'es',
      negated: false,
      words: ['Spanish'],
      how: 'llm',
    });
    expect(matches).toContainEqual({ filter: 'tags', value: 'feat', negated: true, words: [], how: 'llm' });

    const sent = server.received[server.received.length - 1]!;
    expect(sent.authorization).toBe('Bearer sk-test');
    expect(sent.body.model).toBe('tiny-model');
    expect(server.lastPrompt()).toMatchObject({
      sentence: context.query,
      today: '2026-06-01',
      vocabulary: { genres: ['Reggaeton', 'Pop'], languages: ['es', 'en'], tags: ['feat'] },
      statuses: expect.arrayContaining([{ id: 'mixing', name: 'Mixing' }]),
    });
  });

  it('sends no authorization header when no key is configured, and accepts a fenced JSON message', async () => {
    server.behave({ kind: 'answer', content: `\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\`` });
    const outcome = await provider(10_000, null).interpret(context);
    expect(outcome.ok).toBe(true);
    expect(server.received[server.received.length - 1]!.authorization).toBeUndefined();
  });

  it('drops values outside the vocabulary, statuses it does not know and words the query lacks', async () => {
    server.behave({
      kind: 'answer',
      content: {
        filters: {
          genres: { include: ['Reggaeton', 'Dembow'], exclude: ['Polka'] },
          statuses: { include: ['Mixing', 'limbo'] },
          text: { include: ['reggaeton', 'perreo'] },
        },
      },
    });
    const outcome = await provider().interpret(context);
    if (!outcome.ok) throw new Error(outcome.detail);
    const { filters, ignored } = outcome.interpretation;
    expect(filters.genres).toEqual({ include: ['Reggaeton'], exclude: [] });
    expect(filters.statuses).toEqual({ include: ['mixing'], exclude: [] });
    expect(filters.text).toEqual({ include: ['reggaeton'], exclude: [] });
    expect(ignored.map((i) => i.words[0])).toEqual(['Dembow', 'Polka', 'limbo', 'perreo']);
  });

  it('refuses answers of the wrong shape or with impossible ranges', async () => {
    for (const content of [
      'Sure! Here are your filters: reggaeton',
      { genres: ['Reggaeton'] },
      { filters: { genres: 'Reggaeton' } },
      { filters: { year: { min: 2023, max: 2019 } } },
      { filters: { bpm: { min: -5, max: null } } },
    ]) {
      server.behave({ kind: 'answer', content });
      const outcome = await provider().interpret(context);
      expect(outcome, JSON.stringify(content)).toMatchObject({ ok: false, reason: 'invalid' });
    }
    server.behave({ kind: 'garbage' });
    expect(await provider().interpret(context)).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('reports a failing endpoint as an error', async () => {
    server.behave({ kind: 'status', status: 500 });
    expect(await provider().interpret(context)).toMatchObject({
      ok: false,
      reason: 'error',
      detail: 'the endpoint answered HTTP 500',
    });
    const unreachable = new LlmProvider({
      url: 'http://127.0.0.1:9/v1/chat/completions',
      model: 'm',
      apiKey: undefined,
      timeoutMs: 10_000,
    });
    expect(await unreachable.interpret(context)).toMatchObject({ ok: false, reason: 'error' });
  });

  it('gives up on a slow endpoint at the timeout', async () => {
    server.behave({ kind: 'silent' });
    expect(await provider(200).interpret(context)).toMatchObject({ ok: false, reason: 'timeout' });
  });
});

describe('the language-model settings', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '.tmp/unused' };

  it('are off by default and need a model with a URL', () => {
    expect(loadConfig(base).aiSearchLlm).toBeUndefined();
    expect(() =>
      loadConfig({ ...base, AI_SEARCH_LLM_URL: 'http://127.0.0.1:1/v1/chat/completions' }),
    ).toThrow(/AI_SEARCH_LLM_MODEL: required with AI_SEARCH_LLM_URL/);
    expect(() => loadConfig({ ...base, AI_SEARCH_LLM_URL: 'ftp://x', AI_SEARCH_LLM_MODEL: 'm' })).toThrow(
      ConfigError,
    );
    expect(() =>
      loadConfig({
        ...base,
        AI_SEARCH_LLM_URL: 'http://x',
        AI_SEARCH_LLM_MODEL: 'm',
        AI_SEARCH_LLM_TIMEOUT_MS: '5',
      }),
    ).toThrow(/AI_SEARCH_LLM_TIMEOUT_MS/);
  });

  it('carry URL, model, key and timeout', () => {
    const config = loadConfig({
      ...base,
      AI_SEARCH_LLM_URL: 'https://llm.example.test/v1/chat/completions',
      AI_SEARCH_LLM_MODEL: 'small',
      AI_SEARCH_LLM_API_KEY: 'sk-1',
    });
    expect(config.aiSearchLlm).toEqual({
      url: 'https://llm.example.test/v1/chat/completions',
      model: 'small',
      apiKey: 'sk-1',
      timeoutMs: 3000,
    });
  });
});
