import { type Answer, ApiError, unwrap } from './errors.ts';

/** A page of any list of the API. */
export type Page = { items: unknown[]; nextCursor?: string | null };

/**
 * Every page of a list, following `nextCursor` until it is null: `fetchPage` asks for the page after
 * `cursor` (undefined for the first) with the same filters each time. An error answer throws `ApiError`.
 */
export async function* pages<P extends Page>(
  fetchPage: (cursor: string | undefined) => Promise<Answer<P>>,
): AsyncGenerator<P, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = unwrap(await fetchPage(cursor));
    yield page;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/**
 * A new value for the `Idempotency-Key` header: make one per operation, before the first attempt, and
 * send the same one with every retry of it.
 */
export function idempotencyKey(): string {
  const crypto = globalThis.crypto;
  // randomUUID exists only in secure contexts (https, localhost) of browsers; getRandomValues everywhere.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type RetryOptions = {
  /** How many attempts in all (default 3). */
  attempts?: number;
  /** The wait before the second attempt, doubled before each further one (default 500 ms). */
  delayMs?: number;
  /** The longest wait, `Retry-After` included (default 30 s). */
  maxDelayMs?: number;
};

/**
 * Runs `attempt` again when it failed in a way a later try may not: the network (fetch rejects with a
 * TypeError), 429, 5xx, or 409 `idempotency_key_in_use` (the first request with the key still runs),
 * waiting as `Retry-After` says when the answer says. Retry only what is safe to repeat: reads, and
 * writes that carry an `Idempotency-Key` made once for all their attempts.
 */
export async function retry<T>(attempt: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { attempts = 3, delayMs = 500, maxDelayMs = 30_000 } = options;
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (tried >= attempts || !retryable(error)) throw error;
      const asked = error instanceof ApiError ? retryAfterMs(error.response) : undefined;
      await sleep(Math.min(asked ?? delayMs * 2 ** (tried - 1), maxDelayMs));
    }
  }
}

function retryable(error: unknown): boolean {
  if (error instanceof ApiError) {
    return error.status === 429 || error.status >= 500 || error.code === 'idempotency_key_in_use';
  }
  return error instanceof TypeError;
}

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What every "upload URL" endpoint answers: where and how to send the bytes. */
export type UploadTicket = { uploadUrl: string; method?: string; headers: Record<string, string> };

/**
 * Sends the bytes of a file to the signed URL of an upload ticket, with the headers it came with; the
 * file is registered afterwards with the endpoint the ticket names. `body` is a `File` or `Blob` in a
 * browser, bytes or a `Blob` anywhere. A refused upload throws `ApiError` (403 for an expired or altered
 * URL, 413, 415...).
 */
export async function upload(
  ticket: UploadTicket,
  body: Blob | ArrayBuffer | Uint8Array,
  init: { fetch?: typeof fetch; signal?: AbortSignal } = {},
): Promise<Response> {
  // The length comes from the body: browsers refuse to set Content-Length themselves.
  const headers = Object.fromEntries(
    Object.entries(ticket.headers).filter(([name]) => name.toLowerCase() !== 'content-length'),
  );
  const send = init.fetch ?? globalThis.fetch;
  const response = await send(ticket.uploadUrl, {
    method: ticket.method ?? 'PUT',
    headers,
    body: body as NonNullable<RequestInit['body']>,
    ...(init.signal ? { signal: init.signal } : {}),
  });
  if (!response.ok) throw await ApiError.from(response);
  return response;
}
