/** What a device shows: a title, a body, and string data for the app. */
export type PushContent = { title: string; body: string; data: Record<string, string> };

/**
 * A provider's verdict on one device: `dead` means the token will never work again (remove it), `retry`
 * that the provider or the network failed for now, `failed` a permanent error that is not the token's.
 */
export type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'dead'; reason: string }
  | { kind: 'retry'; reason: string }
  | { kind: 'failed'; reason: string };

export type PushProvider = {
  send(token: string, content: PushContent, signal: AbortSignal): Promise<SendOutcome>;
  close(): Promise<void>;
};

/** How long one provider request may take. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** The job's signal, bounded by the request timeout. */
export function requestSignal(signal: AbortSignal): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
}

/** A short description of a failure that never reached an answer (refused, reset, timed out). */
export function networkReason(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message || error.name;
  }
  return String(error);
}
