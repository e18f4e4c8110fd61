import { ToolFailure } from './tool-failures.ts';

/**
 * A stem separation service. The protocol: `POST {url}` with the audio as a 16-bit WAV body
 * (`Content-Type: audio/wav`, `Authorization: Bearer {apiKey}` when a key is set); the answer is JSON
 * `{"stems": [{"name": "vocals"|"drums"|"bass"|"other", "contentType": "audio/wav", "data": "<base64>"}]}`
 * with each of the four names once (`contentType` defaults to `audio/wav`).
 */
export type SeparationSettings = { url: string; apiKey: string | undefined; timeoutMs: number };

export const SEPARATED_STEMS = ['vocals', 'drums', 'bass', 'other'] as const;
export type SeparatedStem = { name: (typeof SEPARATED_STEMS)[number]; contentType: string; bytes: Buffer };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const failed = (detail: string) => new ToolFailure('separation_failed', detail.slice(0, 500));

/** Sends the WAV to the service and answers its four stems; any other answer is a `separation_failed`. */
export async function separateStems(
  settings: SeparationSettings,
  wav: Buffer,
  signal: AbortSignal,
): Promise<SeparatedStem[]> {
  let response: Response;
  try {
    response = await fetch(settings.url, {
      method: 'POST',
      headers: {
        'content-type': 'audio/wav',
        accept: 'application/json',
        ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      body: wav,
      signal: AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError')
      throw failed(`No answer from the separation service within ${settings.timeoutMs} ms`);
    throw failed(
      `The separation service could not be reached: ${error instanceof Error ? error.message : error}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw failed(`The separation service answered HTTP ${response.status}`);
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw failed('The separation service answered something other than JSON');
  }
  const stems = (answer as { stems?: unknown })?.stems;
  if (!Array.isArray(stems)) throw failed('The separation service answered without `stems`');
  const byName = new Map<string, SeparatedStem>();
  for (const stem of stems as { name?: unknown; contentType?: unknown; data?: unknown }[]) {
    const name = stem?.name;
    if (
      typeof name !== 'string' ||
      !(SEPARATED_STEMS as readonly string[]).includes(name) ||
      byName.has(name)
    )
      throw failed(`The separation service answered an unexpected or repeated stem ${JSON.stringify(name)}`);
    const contentType = stem.contentType === undefined ? 'audio/wav' : stem.contentType;
    if (typeof contentType !== 'string' || !contentType.startsWith('audio/'))
      throw failed(`The ${name} stem is not audio`);
    if (typeof stem.data !== 'string' || stem.data.length === 0 || !BASE64.test(stem.data))
      throw failed(`The ${name} stem has no base64 data`);
    byName.set(name, {
      name: name as SeparatedStem['name'],
      contentType,
      bytes: Buffer.from(stem.data, 'base64'),
    });
  }
  const missing = SEPARATED_STEMS.filter((name) => !byName.has(name));
  if (missing.length > 0) throw failed(`The separation service answered no ${missing.join(', ')} stem`);
  return SEPARATED_STEMS.map((name) => byName.get(name)!);
}
