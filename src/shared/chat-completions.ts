/** An OpenAI-compatible chat-completions endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp, ...). */
export type ChatCompletionsSettings = {
  url: string;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
};

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** Why there is no answer: it took too long, the call failed, or the answer was not JSON. */
export type CompletionFailure = { ok: false; reason: 'timeout' | 'error' | 'invalid'; detail: string };
export type CompletionOutcome = { ok: true; content: unknown } | CompletionFailure;

type ChatCompletion = { choices?: { message?: { content?: unknown } }[] };

/**
 * Sends one chat-completions request (`model`, `messages` and any `extra` fields) and answers the first
 * choice's message content; one deadline covers the whole exchange, body included.
 */
export async function completeChat(
  settings: ChatCompletionsSettings,
  messages: ChatMessage[],
  extra: Record<string, unknown> = {},
): Promise<CompletionOutcome> {
  const { url, model, apiKey, timeoutMs } = settings;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({ model, messages, ...extra }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, reason: 'error', detail: `the endpoint answered HTTP ${response.status}` };
    }
    const completion = (await response.json()) as ChatCompletion;
    return { ok: true, content: completion?.choices?.[0]?.message?.content };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError')
      return { ok: false, reason: 'timeout', detail: `no answer within ${timeoutMs} ms` };
    if (error instanceof SyntaxError)
      return { ok: false, reason: 'invalid', detail: 'the endpoint answered something other than JSON' };
    return { ok: false, reason: 'error', detail: error instanceof Error ? error.message : String(error) };
  }
}
