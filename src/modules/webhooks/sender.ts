import { performance } from 'node:perf_hooks';
import { causes } from '../../shared/db-errors.ts';
import { lazyImport } from '../../shared/lazy-module.ts';
import { AddressRefusedError, type GuardedAgent } from './address-guard.ts';

const undici = lazyImport(() => import('undici'));

/** What one POST to an endpoint came to. `error` is short and never holds the URL or a secret. */
export type SendResult = {
  ok: boolean;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
};

/** Bytes of a receiver's answer read (and dropped) at most, so a connection can be reused. */
const MAX_RESPONSE_BYTES = 64 * 1024;

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the receiver',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  UND_ERR_CONNECT_TIMEOUT: 'timed out connecting',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the response',
  UND_ERR_BODY_TIMEOUT: 'timed out reading the response',
};

/**
 * POSTs one signed body through the guarded agent: no redirect is followed (3xx fails), any 2xx succeeds, and the
 * whole exchange has `timeoutMs`. An abort of `signal` (the process is stopping) is thrown, not reported.
 */
export async function send(
  agent: GuardedAgent,
  target: { url: string; body: string; headers: Record<string, string> },
  timeoutMs: number,
  signal: AbortSignal,
): Promise<SendResult> {
  const [{ request }, dispatcher] = await Promise.all([undici(), agent.dispatcher()]);
  const timeout = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await request(target.url, {
      method: 'POST',
      headers: target.headers,
      body: target.body,
      dispatcher,
      signal: AbortSignal.any([signal, timeout]),
    });
    await response.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
    const status = response.statusCode;
    const ok = status >= 200 && status < 300;
    return { ok, responseStatus: status, durationMs: elapsed(), error: ok ? null : statusError(status) };
  } catch (error) {
    if (signal.aborted) throw error;
    const message = timeout.aborted ? `timed out after ${timeoutMs / 1000} s` : errorMessage(error);
    return { ok: false, responseStatus: null, durationMs: elapsed(), error: message };
  }
}

function statusError(status: number): string {
  if (status >= 300 && status < 400) return `redirect (HTTP ${status}) not followed`;
  return `HTTP ${status}`;
}

function errorMessage(error: unknown): string {
  for (const cause of causes(error)) {
    if (cause instanceof AddressRefusedError) return cause.message;
    const code = cause.code;
    if (typeof code !== 'string') continue;
    if (NETWORK_ERRORS[code]) return NETWORK_ERRORS[code];
    if (/^(?:ERR_TLS|ERR_SSL|CERT_|DEPTH_|SELF_SIGNED|UNABLE_TO)/.test(code)) return `TLS failed (${code})`;
    if (/^[A-Z][A-Z0-9_]{2,40}$/.test(code)) return `request failed (${code})`;
  }
  return 'request failed';
}
