import { type ChatCompletionsSettings, completeChat } from '../../../shared/chat-completions.ts';

const MAX_TEXT = 4_000;

/**
 * Text written by the configured model from a system prompt and a JSON user prompt; undefined without a
 * model, on timeout or error, or for an empty answer (the caller then uses its own offline text).
 */
export async function modelText(
  settings: ChatCompletionsSettings | undefined,
  system: string,
  user: unknown,
): Promise<string | undefined> {
  if (!settings) return undefined;
  const outcome = await completeChat(
    settings,
    [
      { role: 'system', content: system },
      { role: 'user', content: JSON.stringify(user) },
    ],
    { temperature: 0.4 },
  );
  if (!outcome.ok || typeof outcome.content !== 'string') return undefined;
  const text = outcome.content.replaceAll('\u0000', '').trim();
  return text.length > 0 ? text.slice(0, MAX_TEXT) : undefined;
}

const REPLY_PROMPT =
  'You are "Assistant", a bot in a music team app that keeps follow-up reminders. Rewrite draftReply as a ' +
  "short, friendly chat reply to the user's message. Keep every fact exactly (names, networks, dates, " +
  'counts); add none. Answer with the reply text only.';

/** The bot's reply writer: the model's wording when one is configured, else (or on failure) the offline text. */
export function replyWriter(settings: ChatCompletionsSettings | undefined) {
  return async (offline: string, context: { userMessage: string; facts: unknown }) =>
    (await modelText(settings, REPLY_PROMPT, {
      message: context.userMessage,
      draftReply: offline,
      facts: context.facts,
    })) ?? offline;
}
