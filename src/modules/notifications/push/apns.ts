import { type ClientHttp2Session, connect } from 'node:http2';
import { SignJWT } from 'jose';
import type { Clock } from '../../../shared/clock.ts';
import type { ApnsSettings } from './push.config.ts';
import {
  networkReason,
  type PushContent,
  type PushProvider,
  requestSignal,
  type SendOutcome,
} from './push.types.ts';

/** Apple accepts a provider token for an hour and throttles renewals more often than every 20 minutes. */
const PROVIDER_TOKEN_REUSE_MS = 50 * 60_000;
const DEAD_TOKEN_REASONS = new Set(['BadDeviceToken', 'DeviceTokenNotForTopic', 'Unregistered']);

/** The verdict of an APNs answer other than 200. */
export function apnsOutcome(status: number, reason: string): SendOutcome {
  const described = `APNs ${status}${reason ? ` ${reason}` : ''}`;
  if (status === 410 || (status === 400 && DEAD_TOKEN_REASONS.has(reason)))
    return { kind: 'dead', reason: described };
  if (status === 429 || status >= 500 || (status === 403 && reason === 'ExpiredProviderToken'))
    return { kind: 'retry', reason: described };
  return { kind: 'failed', reason: described };
}

/**
 * APNs with token-based authentication: an ES256 provider token (reused for 50 minutes) on one HTTP/2
 * connection per process, opened on first use and again after Apple or the network closes it.
 */
export class ApnsClient implements PushProvider {
  private session: ClientHttp2Session | undefined;
  private inFlight = 0;
  private providerToken: { value: Promise<string>; issuedAt: number } | undefined;

  constructor(
    private readonly settings: ApnsSettings,
    private readonly clock: Clock,
  ) {}

  async send(token: string, content: PushContent, signal: AbortSignal): Promise<SendOutcome> {
    const jwt = await this.jwt();
    const payload = JSON.stringify({
      ...content.data,
      aps: { alert: { title: content.title, body: content.body } },
    });
    const answer = await this.post(`/3/device/${encodeURIComponent(token)}`, jwt, payload, signal);
    if ('network' in answer) return { kind: 'retry', reason: `APNs: ${answer.network}` };
    if (answer.status === 200) return { kind: 'sent' };
    let reason = '';
    try {
      const parsed = JSON.parse(answer.body) as { reason?: unknown };
      if (typeof parsed.reason === 'string') reason = parsed.reason;
    } catch {
      // an answer without a JSON reason is judged by its status alone
    }
    if (answer.status === 403 && /ProviderToken/.test(reason)) {
      // Apple refused our token: the next send signs a fresh one.
      if (this.providerToken && (await this.providerToken.value) === jwt) this.providerToken = undefined;
    }
    return apnsOutcome(answer.status, reason);
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session || session.destroyed) return;
    await new Promise<void>((resolve) => {
      session.close(() => resolve());
      // Requests still running when the process stops are cut off rather than waited for.
      setTimeout(() => session.destroy(), 1000).unref();
    });
  }

  private jwt(): Promise<string> {
    const now = this.clock.now().getTime();
    const current = this.providerToken;
    if (current && now - current.issuedAt < PROVIDER_TOKEN_REUSE_MS && now >= current.issuedAt)
      return current.value;
    const value = new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: this.settings.keyId })
      .setIssuer(this.settings.teamId)
      .setIssuedAt(Math.floor(now / 1000))
      .sign(this.settings.key);
    this.providerToken = { value, issuedAt: now };
    value.catch(() => {
      if (this.providerToken?.value === value) this.providerToken = undefined;
    });
    return value;
  }

  /** The one session, opened again once closed, refused (GOAWAY) or broken. */
  private connection(): ClientHttp2Session {
    const open = this.session;
    if (open && !open.closed && !open.destroyed) return open;
    const session = connect(this.settings.url);
    const forget = () => {
      if (this.session === session) this.session = undefined;
    };
    // A failing session fails its requests too, which report it; the listener keeps the error from escaping.
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    session.unref();
    this.session = session;
    return session;
  }

  private post(
    path: string,
    jwt: string,
    payload: string,
    signal: AbortSignal,
  ): Promise<{ status: number; body: string } | { network: string }> {
    return new Promise((resolve) => {
      let session: ClientHttp2Session;
      let stream: ReturnType<ClientHttp2Session['request']>;
      try {
        session = this.connection();
        stream = session.request(
          {
            ':method': 'POST',
            ':path': path,
            authorization: `bearer ${jwt}`,
            'apns-topic': this.settings.topic,
            'apns-push-type': 'alert',
            'content-type': 'application/json',
          },
          { signal: requestSignal(signal) },
        );
      } catch (error) {
        resolve({ network: networkReason(error) });
        return;
      }
      // The session holds the process open only while it has work.
      if (this.inFlight++ === 0) session.ref();
      let status = 0;
      let failure: unknown;
      const chunks: Buffer[] = [];
      stream.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => {
        failure = error;
      });
      stream.on('close', () => {
        if (--this.inFlight === 0 && !session.destroyed) session.unref();
        if (status === 0 || failure !== undefined)
          resolve({
            network:
              failure === undefined ? `stream closed (code ${stream.rstCode})` : networkReason(failure),
          });
        else resolve({ status, body: Buffer.concat(chunks).toString('utf8') });
      });
      stream.end(payload);
    });
  }
}
