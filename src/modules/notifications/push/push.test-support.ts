import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import type { Clock } from '../../../shared/clock.ts';

export const PROJECT_ID = 'tmw-push-test';
export const CLIENT_EMAIL = 'push@tmw-push-test.iam.gserviceaccount.com';
export const PRIVATE_KEY_ID = 'a1b2c3d4e5';
export const APNS_KEY_ID = 'KEY1234567';
export const APNS_TEAM_ID = 'TEAM123456';
export const APNS_TOPIC = 'com.example.music';

const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();

/**
 * Keys made for the tests: an RSA service account for FCM and an EC P-256 key for APNs (written to a
 * file, the form Apple hands it out in), and the environment that points both at the stand-ins.
 */
export function pushMaterial() {
  const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const apple = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const dir = mkdtempSync(join(tmpdir(), 'push-test-'));
  const apnsKeyFile = join(dir, `AuthKey_${APNS_KEY_ID}.p8`);
  writeFileSync(apnsKeyFile, pem(apple.privateKey));
  const serviceAccount = (tokenUri: string) =>
    JSON.stringify({
      type: 'service_account',
      project_id: PROJECT_ID,
      private_key_id: PRIVATE_KEY_ID,
      private_key: pem(google.privateKey),
      client_email: CLIENT_EMAIL,
      token_uri: tokenUri,
    });
  return {
    dir,
    googlePublicKey: google.publicKey,
    applePublicKey: apple.publicKey,
    applePrivateKeyPem: pem(apple.privateKey),
    apnsKeyFile,
    serviceAccount,
    env: (fcm: FcmStandIn, apns: ApnsStandIn): Record<string, string> => ({
      FCM_SERVICE_ACCOUNT: serviceAccount(`${fcm.url}/token`),
      FCM_API_URL: fcm.url,
      APNS_KEY: apnsKeyFile,
      APNS_KEY_ID,
      APNS_TEAM_ID,
      APNS_TOPIC,
      APNS_URL: apns.url,
    }),
    cleanUp: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export type Answer = { status: number; body: unknown };
/** Answers queued per device token, used in order; a token without one is accepted. */
type Script = Map<string, Answer[]>;

function nextAnswer(script: Script, token: string, accepted: unknown): Answer {
  return script.get(token)?.shift() ?? { status: 200, body: accepted };
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Google's OAuth2 token endpoint and FCM HTTP v1 on 127.0.0.1. The token endpoint verifies the signed
 * assertion with the service account's public key; `messages:send` checks the access token it issued.
 */
export class FcmStandIn {
  readonly exchanges: { header: Record<string, unknown>; claims: Record<string, unknown> }[] = [];
  readonly sends: { token: string; message: unknown; accessToken: string | undefined }[] = [];
  /** Requests refused, with why: tests expect none. */
  readonly refused: string[] = [];
  readonly answers: Script = new Map();
  /** Runs before a device's answer is given (a race the test sets up). */
  beforeAnswer: ((token: string) => Promise<void>) | undefined;
  readonly issued = new Set<string>();
  private readonly server: Server;
  url = '';

  constructor(
    private readonly publicKey: KeyObject,
    private readonly clock: Clock,
  ) {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, body }) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage): Promise<Answer> {
    const text = await bodyOf(req);
    if (req.method === 'POST' && req.url === '/token') return this.exchange(req, text);
    if (req.method === 'POST' && req.url === `/v1/projects/${PROJECT_ID}/messages:send`)
      return this.send(req, text);
    this.refused.push(`unexpected ${req.method} ${req.url}`);
    return { status: 404, body: { error: { code: 404, status: 'NOT_FOUND', message: 'no such endpoint' } } };
  }

  private async exchange(req: IncomingMessage, text: string): Promise<Answer> {
    const form = new URLSearchParams(text);
    const assertion = form.get('assertion') ?? '';
    try {
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') throw new Error('not a form');
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        throw new Error('grant_type');
      const { payload } = await jwtVerify(assertion, this.publicKey, {
        algorithms: ['RS256'],
        issuer: CLIENT_EMAIL,
        audience: `${this.url}/token`,
        requiredClaims: ['iat', 'exp', 'scope'],
        currentDate: this.clock.now(),
      });
      if (payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging') throw new Error('scope');
      this.exchanges.push({ header: decodeProtectedHeader(assertion), claims: payload });
    } catch (error) {
      this.refused.push(`token exchange: ${String(error)}`);
      return { status: 400, body: { error: 'invalid_grant', error_description: String(error) } };
    }
    const accessToken = `ya29.${randomBytes(12).toString('hex')}`;
    this.issued.add(accessToken);
    return { status: 200, body: { access_token: accessToken, expires_in: 3600, token_type: 'Bearer' } };
  }

  private async send(req: IncomingMessage, text: string): Promise<Answer> {
    const accessToken = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!accessToken || !this.issued.has(accessToken)) {
      this.refused.push('send without a valid access token');
      return { status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED', message: 'bad token' } } };
    }
    const message = (JSON.parse(text) as { message: { token: string } }).message;
    this.sends.push({ token: message.token, message, accessToken });
    await this.beforeAnswer?.(message.token);
    return nextAnswer(this.answers, message.token, {
      name: `projects/${PROJECT_ID}/messages/${this.sends.length}`,
    });
  }
}

/** FCM's error answer for a token. */
export const fcmError = (status: number, code: string, extra: object[] = []): Answer => ({
  status,
  body: {
    error: {
      code: status,
      message: code === 'UNREGISTERED' ? 'Requested entity was not found.' : 'The request was refused',
      status: status === 404 ? 'NOT_FOUND' : status === 400 ? 'INVALID_ARGUMENT' : code,
      details: [
        { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: code },
        ...extra,
      ],
    },
  },
});

/** A field violation naming what was invalid. */
export const badField = (field: string) => ({
  '@type': 'type.googleapis.com/google.rpc.BadRequest',
  fieldViolations: [{ field, description: 'Invalid registration token' }],
});

/**
 * APNs on 127.0.0.1 over cleartext HTTP/2: verifies the ES256 provider token with the test's public key, and
 * records the topic, push type, device token and body of every request.
 */
export class ApnsStandIn {
  readonly requests: {
    token: string;
    jwt: string;
    topic: unknown;
    pushType: unknown;
    contentType: unknown;
    body: unknown;
  }[] = [];
  readonly refused: string[] = [];
  readonly answers: Script = new Map();
  beforeAnswer: ((token: string) => Promise<void>) | undefined;
  /** Connections opened by clients so far. */
  sessionsOpened = 0;
  private readonly sessions = new Set<ServerHttp2Session>();
  private readonly server: Http2Server;
  url = '';

  constructor(
    private readonly publicKey: KeyObject,
    private readonly clock: Clock,
  ) {
    this.server = createHttp2Server();
    this.server.on('session', (session) => {
      this.sessionsOpened++;
      this.sessions.add(session);
      session.on('close', () => this.sessions.delete(session));
    });
    this.server.on('stream', (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void this.answer(headers, Buffer.concat(chunks).toString('utf8')).then(({ status, body }) => {
          if (stream.destroyed) return;
          stream.respond({ ':status': status, 'content-type': 'application/json' });
          stream.end(body === undefined ? undefined : JSON.stringify(body));
        });
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Ends every open connection (GOAWAY), as Apple does now and then. */
  async dropConnections(): Promise<void> {
    await Promise.all(
      [...this.sessions].map((session) => new Promise<void>((resolve) => session.close(() => resolve()))),
    );
  }

  async stop(): Promise<void> {
    for (const session of this.sessions) session.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async answer(
    headers: Record<string, string | string[] | undefined>,
    text: string,
  ): Promise<Answer> {
    const path = String(headers[':path']);
    const token = /^\/3\/device\/([0-9a-f]+)$/.exec(path)?.[1];
    const jwt = /^bearer (.+)$/.exec(String(headers.authorization))?.[1] ?? '';
    try {
      if (headers[':method'] !== 'POST' || !token)
        throw new Error(`unexpected ${headers[':method']} ${path}`);
      const { protectedHeader } = await jwtVerify(jwt, this.publicKey, {
        algorithms: ['ES256'],
        issuer: APNS_TEAM_ID,
        requiredClaims: ['iat'],
        maxTokenAge: '1h',
        currentDate: this.clock.now(),
      });
      if (protectedHeader.kid !== APNS_KEY_ID) throw new Error(`kid ${protectedHeader.kid}`);
    } catch (error) {
      this.refused.push(String(error));
      return { status: 403, body: { reason: 'InvalidProviderToken' } };
    }
    this.requests.push({
      token,
      jwt,
      topic: headers['apns-topic'],
      pushType: headers['apns-push-type'],
      contentType: headers['content-type'],
      body: JSON.parse(text),
    });
    await this.beforeAnswer?.(token);
    return nextAnswer(this.answers, token, undefined);
  }
}

/** A device token as APNs hands them out: 32 bytes in hex. */
export const iosToken = () => randomBytes(32).toString('hex');
/** An FCM registration token (shape only). */
export const fcmToken = () => `fcm-${randomBytes(24).toString('base64url')}`;
