/** An OpenAI-compatible speech-to-text endpoint (`/v1/audio/transcriptions`: OpenAI, whisper.cpp, faster-whisper). */
export type TranscriptionSettings = {
  url: string;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
};

export type TranscriptionOutcome = { ok: true; text: string } | { ok: false; reason: string };

const MAX_REASON = 500;

/** Sends one audio file as multipart form data (`file`, `model`) and reads `{text}` from the answer. */
export async function transcribe(
  settings: TranscriptionSettings,
  audio: { bytes: Uint8Array; fileName: string; contentType: string },
): Promise<TranscriptionOutcome> {
  const form = new FormData();
  form.append('file', new Blob([audio.bytes], { type: audio.contentType }), audio.fileName);
  form.append('model', settings.model);
  form.append('response_format', 'json');
  try {
    const response = await fetch(settings.url, {
      method: 'POST',
      headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
      body: form,
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, reason: `the transcription service answered HTTP ${response.status}` };
    }
    const answer = (await response.json()) as { text?: unknown };
    if (typeof answer?.text !== 'string')
      return { ok: false, reason: 'the transcription service answered without text' };
    return { ok: true, text: answer.text };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError')
      return {
        ok: false,
        reason: `no answer from the transcription service within ${settings.timeoutMs} ms`,
      };
    if (error instanceof SyntaxError)
      return { ok: false, reason: 'the transcription service answered something other than JSON' };
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: `the transcription service could not be reached: ${message}`.slice(0, MAX_REASON),
    };
  }
}
