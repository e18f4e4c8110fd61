import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Static, Type } from '@sinclair/typebox';
import { withoutTrailing } from '../../../shared/text.ts';

const Text = Type.Optional(Type.String({ minLength: 1, maxLength: 65_536 }));

/**
 * Push delivery. FCM (Android and web devices) needs a service account; APNs (iOS devices) needs its
 * four values. Neither configured: nothing is sent and nothing is queued. The service account and the key
 * are given as their contents or as the path of a file holding them.
 */
export const PushEnv = Type.Object({
  FCM_SERVICE_ACCOUNT: Text,
  FCM_API_URL: Text,
  APNS_KEY: Text,
  APNS_KEY_ID: Text,
  APNS_TEAM_ID: Text,
  APNS_TOPIC: Text,
  APNS_URL: Text,
});

type Env = Static<typeof PushEnv>;

export const FCM_DEFAULT_URL = 'https://fcm.googleapis.com';
export const APNS_DEFAULT_URL = 'https://api.push.apple.com';
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

export type FcmSettings = Readonly<{
  projectId: string;
  clientEmail: string;
  /** The service account key's id, sent as the assertion's `kid` when the account names one. */
  privateKeyId: string | undefined;
  privateKey: KeyObject;
  /** Where the signed assertion is exchanged for an access token. */
  tokenUri: string;
  /** Base URL of the FCM HTTP v1 API, without a trailing slash. */
  apiUrl: string;
}>;

export type ApnsSettings = Readonly<{
  /** The .p8 signing key (EC P-256). */
  key: KeyObject;
  keyId: string;
  teamId: string;
  /** The app's bundle id, sent as `apns-topic`. */
  topic: string;
  /** Origin of the APNs provider API, without a trailing slash. */
  url: string;
}>;

export type PushSettings = Readonly<{ fcm: FcmSettings | undefined; apns: ApnsSettings | undefined }>;

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/**
 * An https URL, or plain http to a loopback host (a stand-in on the same machine), where nobody can read
 * the credentials on the way; the problem otherwise.
 */
function endpoint(name: string, value: string): { url: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not echoed: a URL that does not parse may still hold credentials.
    return { problem: `${name}: is not a URL` };
  }
  if (url.username || url.password || url.search || url.hash)
    return { problem: `${name}: must not carry credentials, a query or a fragment` };
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback))
    return { url: withoutTrailing(url.href, (c) => c === '/') };
  return { problem: `${name}: must use https (plain http only to a loopback host), got ${url.href}` };
}

/** The value itself when it starts like its contents do, else the contents of the file it names. */
function contentsOf(
  problems: string[],
  name: string,
  value: string,
  looksLikeContents: (v: string) => boolean,
): string | undefined {
  // One-line environment values often carry PEM line breaks as the two characters \n.
  const inline = value.trimStart().startsWith('-----BEGIN') ? value.replaceAll('\\n', '\n') : value;
  if (looksLikeContents(inline.trimStart())) return inline;
  try {
    return readFileSync(value, 'utf8');
  } catch {
    problems.push(`${name}: is neither the expected text nor the path of a readable file`);
    return undefined;
  }
}

function privateKey(problems: string[], name: string, pem: string): KeyObject | undefined {
  try {
    return createPrivateKey(pem);
  } catch {
    problems.push(`${name}: is not a PEM private key`);
    return undefined;
  }
}

function fcm(env: Env, problems: string[]): FcmSettings | undefined {
  const name = 'FCM_SERVICE_ACCOUNT';
  const before = problems.length;
  const api = endpoint('FCM_API_URL', env.FCM_API_URL ?? FCM_DEFAULT_URL);
  if ('problem' in api) problems.push(api.problem);
  const text = contentsOf(problems, name, env.FCM_SERVICE_ACCOUNT!, (v) => v.startsWith('{'));
  if (text === undefined) return undefined;
  let account: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      account = parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  if (!account) {
    problems.push(`${name}: is not a service account key (a JSON object)`);
    return undefined;
  }
  const { project_id: projectId, client_email: clientEmail, private_key: keyPem } = account;
  if (typeof projectId !== 'string' || !/^[a-z][a-z0-9-]{3,61}[a-z0-9]$/.test(projectId))
    problems.push(`${name}: has no project_id (the Firebase project id)`);
  if (typeof clientEmail !== 'string' || !clientEmail.includes('@'))
    problems.push(`${name}: has no client_email`);
  let key: KeyObject | undefined;
  if (typeof keyPem !== 'string') problems.push(`${name}: has no private_key`);
  else {
    key = privateKey(problems, `${name} private_key`, keyPem);
    if (key && key.asymmetricKeyType !== 'rsa') problems.push(`${name} private_key: must be an RSA key`);
  }
  const tokenUriValue = account.token_uri ?? GOOGLE_TOKEN_URI;
  const tokenUri =
    typeof tokenUriValue === 'string' ? endpoint(`${name} token_uri`, tokenUriValue) : undefined;
  if (!tokenUri) problems.push(`${name}: token_uri must be a URL`);
  else if ('problem' in tokenUri) problems.push(tokenUri.problem);
  const keyId = account.private_key_id;
  if (problems.length > before || !key || !tokenUri || 'problem' in tokenUri || 'problem' in api)
    return undefined;
  return Object.freeze({
    projectId: projectId as string,
    clientEmail: clientEmail as string,
    privateKeyId: typeof keyId === 'string' && keyId !== '' ? keyId : undefined,
    privateKey: key,
    tokenUri: tokenUri.url,
    apiUrl: api.url,
  });
}

const APNS = ['APNS_KEY', 'APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_TOPIC'] as const;

function apns(env: Env, problems: string[]): ApnsSettings | undefined {
  const before = problems.length;
  const keyId = env.APNS_KEY_ID!.trim();
  const teamId = env.APNS_TEAM_ID!.trim();
  const topic = env.APNS_TOPIC!.trim();
  if (!/^[A-Z0-9]{10}$/.test(keyId)) problems.push('APNS_KEY_ID: must be the 10-character key identifier');
  if (!/^[A-Z0-9]{10}$/.test(teamId))
    problems.push('APNS_TEAM_ID: must be the 10-character Apple team identifier');
  if (!/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(topic))
    problems.push('APNS_TOPIC: must be the app bundle identifier, such as com.example.app');
  const url = endpoint('APNS_URL', env.APNS_URL ?? APNS_DEFAULT_URL);
  if ('problem' in url) problems.push(url.problem);
  else if (new URL(url.url).pathname !== '/') problems.push('APNS_URL: must be an origin, without a path');
  const pem = contentsOf(problems, 'APNS_KEY', env.APNS_KEY!, (v) => v.startsWith('-----BEGIN'));
  const key = pem === undefined ? undefined : privateKey(problems, 'APNS_KEY', pem);
  if (key && (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1'))
    problems.push('APNS_KEY: must be an EC P-256 key (the .p8 file from Apple)');
  if (problems.length > before || !key || 'problem' in url) return undefined;
  return Object.freeze({ key, keyId, teamId, topic, url: url.url });
}

/** The push settings, and a message for every value that is missing, unusable or set without its partners. */
export function pushSettings(env: Env): { value: PushSettings; problems: string[] } {
  const problems: string[] = [];
  if (env.FCM_API_URL && !env.FCM_SERVICE_ACCOUNT)
    problems.push('FCM_API_URL: set only together with FCM_SERVICE_ACCOUNT');
  const absent = APNS.filter((n) => !env[n]);
  if (absent.length > 0 && absent.length < APNS.length)
    problems.push(`${absent.join(', ')}: required for APNs (other APNS_ values are set)`);
  if (env.APNS_URL && absent.length > 0)
    problems.push('APNS_URL: set only together with the other APNS_ values');
  return {
    value: Object.freeze({
      fcm: env.FCM_SERVICE_ACCOUNT ? fcm(env, problems) : undefined,
      apns: absent.length === 0 ? apns(env, problems) : undefined,
    }),
    problems,
  };
}
