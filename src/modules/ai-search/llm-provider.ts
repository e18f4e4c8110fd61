import { type ChatCompletionsSettings, completeChat } from '../../shared/chat-completions.ts';
import type { Interpretation } from './interpretation.ts';
import { interpretAnswer } from './llm-answer.ts';
import { promptFor } from './llm-prompt.ts';
import type { ParseContext } from './parser.ts';

/** An OpenAI-compatible chat-completions endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp, ...). */
export type LlmSettings = ChatCompletionsSettings;

/** Why the model's answer was not used: it took too long, the call failed, or the answer was unusable. */
export type LlmFailure = 'timeout' | 'error' | 'invalid';

export type LlmOutcome =
  | { ok: true; interpretation: Interpretation }
  | { ok: false; reason: LlmFailure; detail: string };

const fail = (reason: LlmFailure, detail: string): LlmOutcome => ({ ok: false, reason, detail });

const FENCE = '```';

/**
 * The text inside a Markdown code fence (with an optional `json` tag) that is all of `text`, else `text`. Read
 * with string operations: a pattern for it (`^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$`) took time cubic
 * in a long answer that only opens a fence.
 */
function unfenced(text: string): string {
  if (text.length < 2 * FENCE.length || !text.startsWith(FENCE) || !text.endsWith(FENCE)) return text;
  const inner = text.slice(FENCE.length, -FENCE.length);
  return inner.toLowerCase().startsWith('json') ? inner.slice('json'.length) : inner;
}

/** The JSON inside a model's message, which some models wrap in a Markdown code fence. */
function jsonOf(content: unknown): unknown {
  if (typeof content !== 'string') return undefined;
  try {
    return JSON.parse(unfenced(content.trim()));
  } catch {
    return undefined;
  }
}

/** Asks a language model to read a query; every answer is checked against the vocabulary before use. */
export class LlmProvider {
  constructor(private readonly settings: LlmSettings) {}

  async interpret(context: ParseContext): Promise<LlmOutcome> {
    const outcome = await completeChat(this.settings, promptFor(context), {
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    if (!outcome.ok) return outcome;
    const answer = jsonOf(outcome.content);
    if (answer === undefined) return fail('invalid', 'the message is not a JSON object');
    const interpretation = interpretAnswer(answer, context);
    if (!interpretation) return fail('invalid', 'the JSON does not have the expected shape');
    return { ok: true, interpretation };
  }
}
