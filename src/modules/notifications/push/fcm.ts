import { SignJWT } from 'jose';
import type { Clock } from '../../../shared/clock.ts';
import type { FcmSettings } from './push.config.ts';
import {
  networkReason,
  type PushContent,
  type PushProvider,
  requestSignal,
  type SendOutcome,
} from './push.types.ts';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** An access token is renewed this long before it expires, so none expires on its way to FCM. */
const RENEW_BEFORE_MS = 5 * 60_000;
const ASSERTION_TTL_S = 3600;

type AccessToken = { value: string; renewAt: number };

/** Answers of the token endpoint that a later attempt may not get (it or the network failed). */
class TokenExchangeError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

type GoogleError = {
  error?: {
    status?: string;
    message?: string;
    details?: { '@type'?: string; errorCode?: string; fieldViolations?: { field?: string }[] }[];
  };
};

/** The verdict of an FCM HTTP v1 error answer. */
export function fcmOutcome(status: number, body: GoogleError): SendOutcome {
  const error = body.error ?? {};
  const details = Array.isArray(error.details) ? error.details : [];
  const codes = details.map((d) => d.errorCode).filter((c) => typeof c === 'string');
  const reason =
    `FCM ${status} ${[error.status, ...codes].filter(Boolean).join('/')}: ${error.message ?? ''}`.trim();
  if (codes.includes('UNREGISTERED')) return { kind: 'dead', reason };
  if (status === 400 && (codes.includes('INVALID_ARGUMENT') || error.status === 'INVALID_ARGUMENT')) {
    // Only a complaint about the token condemns it; any other invalid argument is ours.
    const aboutToken =
      details.some((d) => d.fieldViolations?.some((v) => v.field === 'message.token')) ||
      /registration token/i.test(error.message ?? '');
    return { kind: aboutToken ? 'dead' : 'failed', reason };
  }
  if (status === 429 || status >= 500 || codes.includes('UNAVAILABLE') || codes.includes('INTERNAL'))
    return { kind: 'retry', reason };
  return { kind: 'failed', reason };
}

async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return {};
  }
}

/**
 * FCM HTTP v1 with a service account: an RS256 assertion is exchanged for an OAuth2 access token (kept
 * until shortly before it expires; concurrent sends share one exchange), which authorizes `messages:send`.
 */
export class FcmClient implements PushProvider {
  private token: AccessToken | undefined;
  private exchanging: Promise<AccessToken> | undefined;
  private readonly sendUrl: string;

  constructor(
    private readonly settings: FcmSettings,
    private readonly clock: Clock,
  ) {
    this.sendUrl = `${settings.apiUrl}/v1/projects/${encodeURIComponent(settings.projectId)}/messages:send`;
  }

  async send(token: string, content: PushContent, signal: AbortSignal): Promise<SendOutcome> {
    let accessToken: string;
    try {
      accessToken = await this.accessToken(signal);
    } catch (error) {
      if (error instanceof TokenExchangeError)
        return { kind: error.retryable ? 'retry' : 'failed', reason: error.message };
      return { kind: 'retry', reason: `FCM token exchange: ${networkReason(error)}` };
    }
    let response: Response;
    try {
      response = await fetch(this.sendUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          message: { token, notification: { title: content.title, body: content.body }, data: content.data },
        }),
        signal: requestSignal(signal),
      });
    } catch (error) {
      return { kind: 'retry', reason: `FCM: ${networkReason(error)}` };
    }
    const body = await jsonOf(response);
    if (response.ok) return { kind: 'sent' };
    if (response.status === 401) {
      // Revoked or expired early: the next attempt exchanges a fresh one.
      if (this.token?.value === accessToken) this.token = undefined;
      return { kind: 'retry', reason: 'FCM 401: the access token was refused' };
    }
    return fcmOutcome(response.status, body as GoogleError);
  }

  async close(): Promise<void> {}

  private accessToken(signal: AbortSignal): Promise<string> {
    const now = this.clock.now().getTime();
    if (this.token && now < this.token.renewAt) return Promise.resolve(this.token.value);
    this.exchanging ??= this.exchange(signal).finally(() => {
      this.exchanging = undefined;
    });
    return this.exchanging.then((t) => t.value);
  }

  private async exchange(signal: AbortSignal): Promise<AccessToken> {
    const { clientEmail, privateKey, privateKeyId, tokenUri } = this.settings;
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(privateKeyId ? { kid: privateKeyId } : {}) })
      .setIssuer(clientEmail)
      .setAudience(tokenUri)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ASSERTION_TTL_S)
      .sign(privateKey);
    const response = await fetch(tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
      signal: requestSignal(signal),
    });
    const body = (await jsonOf(response)) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
      error_description?: unknown;
    };
    if (!response.ok || typeof body.access_token !== 'string') {
      const why = [body.error, body.error_description].filter((v) => typeof v === 'string').join(': ');
      throw new TokenExchangeError(
        `FCM token exchange answered ${response.status}${why ? ` (${why})` : ''}`,
        response.status === 429 || response.status >= 500,
      );
    }
    const expiresInMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    const token = {
      value: body.access_token,
      renewAt: this.clock.now().getTime() + Math.max(expiresInMs - RENEW_BEFORE_MS, expiresInMs / 2),
    };
    this.token = token;
    return token;
  }
}
