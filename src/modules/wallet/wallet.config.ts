import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Static, Type } from '@sinclair/typebox';

const Text = Type.Optional(Type.String({ minLength: 1, maxLength: 65_536 }));

/**
 * Wallet passes. Apple needs all of its five values, Google all of its three; a platform left out answers
 * 503 wallet_unavailable. Certificates, keys and the service account are given as their contents or as
 * the path of a file holding them.
 */
export const WalletEnv = Type.Object({
  WALLET_ORGANIZATION_NAME: Type.String({ minLength: 1, maxLength: 64, default: 'Team Music Workspace' }),
  WALLET_APPLE_PASS_TYPE_ID: Text,
  WALLET_APPLE_TEAM_ID: Text,
  WALLET_APPLE_CERTIFICATE: Text,
  WALLET_APPLE_KEY: Text,
  WALLET_APPLE_KEY_PASSPHRASE: Text,
  WALLET_APPLE_WWDR_CERTIFICATE: Text,
  WALLET_GOOGLE_ISSUER_ID: Text,
  WALLET_GOOGLE_CLASS_ID: Text,
  WALLET_GOOGLE_SERVICE_ACCOUNT: Text,
});

type Env = Static<typeof WalletEnv>;

export type AppleWalletSettings = Readonly<{
  passTypeIdentifier: string;
  teamIdentifier: string;
  /** PEM texts as passkit-generator reads them; the key unencrypted (PKCS#1), as node-forge reads it. */
  certificate: string;
  key: string;
  wwdr: string;
}>;

export type GoogleWalletSettings = Readonly<{
  issuerId: string;
  /** `<issuerId>.<suffix>`. */
  classId: string;
  clientEmail: string;
  privateKey: KeyObject;
}>;

export type WalletSettings = Readonly<{
  organizationName: string;
  apple: AppleWalletSettings | undefined;
  google: GoogleWalletSettings | undefined;
}>;

const APPLE = [
  'WALLET_APPLE_PASS_TYPE_ID',
  'WALLET_APPLE_TEAM_ID',
  'WALLET_APPLE_CERTIFICATE',
  'WALLET_APPLE_KEY',
  'WALLET_APPLE_WWDR_CERTIFICATE',
] as const;
const GOOGLE = [
  'WALLET_GOOGLE_ISSUER_ID',
  'WALLET_GOOGLE_CLASS_ID',
  'WALLET_GOOGLE_SERVICE_ACCOUNT',
] as const;

/** Collects every problem of the wallet values, so the operator sees them all at once. */
class Problems {
  readonly list: string[] = [];
  add(message: string): undefined {
    this.list.push(message);
    return undefined;
  }
}

const isPem = (v: string) => v.startsWith('-----BEGIN');

/** The value itself when it starts like its contents do, else the contents of the file it names. */
function contentsOf(
  problems: Problems,
  name: string,
  value: string,
  looksLikeContents: (v: string) => boolean,
): string | undefined {
  // One-line environment values often carry PEM line breaks as the two characters \n.
  const inline = isPem(value.trimStart()) ? value.replaceAll('\\n', '\n') : value;
  if (looksLikeContents(inline.trimStart())) return inline;
  try {
    return readFileSync(value, 'utf8');
  } catch {
    return problems.add(`${name}: is neither the expected text nor the path of a readable file`);
  }
}

function certificate(problems: Problems, name: string, value: string): X509Certificate | undefined {
  const pem = contentsOf(problems, name, value, isPem);
  if (pem === undefined) return undefined;
  try {
    return new X509Certificate(pem);
  } catch {
    return problems.add(`${name}: is not a PEM certificate`);
  }
}

function rsaKey(problems: Problems, name: string, pem: string, passphrase?: string): KeyObject | undefined {
  let key: KeyObject;
  try {
    key = createPrivateKey(passphrase === undefined ? pem : { key: pem, passphrase });
  } catch {
    return problems.add(
      `${name}: is not a PEM private key${passphrase === undefined ? '' : ' (or the passphrase does not open it)'}`,
    );
  }
  return key.asymmetricKeyType === 'rsa' ? key : problems.add(`${name}: must be an RSA key`);
}

function apple(env: Env, problems: Problems): AppleWalletSettings | undefined {
  const before = problems.list.length;
  const passTypeIdentifier = env.WALLET_APPLE_PASS_TYPE_ID!.trim();
  const teamIdentifier = env.WALLET_APPLE_TEAM_ID!.trim();
  if (!/^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(passTypeIdentifier))
    problems.add(
      'WALLET_APPLE_PASS_TYPE_ID: must be a pass type identifier such as pass.com.example.identity',
    );
  if (!/^[A-Z0-9]{10}$/.test(teamIdentifier))
    problems.add('WALLET_APPLE_TEAM_ID: must be the 10-character Apple team identifier');
  const cert = certificate(problems, 'WALLET_APPLE_CERTIFICATE', env.WALLET_APPLE_CERTIFICATE!);
  const wwdr = certificate(problems, 'WALLET_APPLE_WWDR_CERTIFICATE', env.WALLET_APPLE_WWDR_CERTIFICATE!);
  const keyPem = contentsOf(problems, 'WALLET_APPLE_KEY', env.WALLET_APPLE_KEY!, isPem);
  const key =
    keyPem === undefined
      ? undefined
      : rsaKey(problems, 'WALLET_APPLE_KEY', keyPem, env.WALLET_APPLE_KEY_PASSPHRASE);
  if (cert && key && !cert.checkPrivateKey(key))
    problems.add('WALLET_APPLE_KEY: is not the key of WALLET_APPLE_CERTIFICATE');
  if (problems.list.length > before || !cert || !wwdr || !key) return undefined;
  return Object.freeze({
    passTypeIdentifier,
    teamIdentifier,
    certificate: cert.toString(),
    key: key.export({ type: 'pkcs1', format: 'pem' }).toString(),
    wwdr: wwdr.toString(),
  });
}

function google(env: Env, problems: Problems): GoogleWalletSettings | undefined {
  const before = problems.list.length;
  const name = 'WALLET_GOOGLE_SERVICE_ACCOUNT';
  const issuerId = env.WALLET_GOOGLE_ISSUER_ID!.trim();
  if (!/^\d{1,30}$/.test(issuerId))
    problems.add('WALLET_GOOGLE_ISSUER_ID: must be the digits of the issuer id');
  const classValue = env.WALLET_GOOGLE_CLASS_ID!.trim();
  if (!/^[A-Za-z0-9._-]{1,256}$/.test(classValue))
    problems.add('WALLET_GOOGLE_CLASS_ID: may hold letters, digits, . _ and - only');
  const text = contentsOf(problems, name, env.WALLET_GOOGLE_SERVICE_ACCOUNT!, (v) => v.startsWith('{'));
  let account: Record<string, unknown> | undefined;
  if (text !== undefined) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        account = parsed as Record<string, unknown>;
    } catch {
      // reported below
    }
    if (!account) problems.add(`${name}: is not a service account key (a JSON object)`);
  }
  const clientEmail = account?.client_email;
  if (account && (typeof clientEmail !== 'string' || !clientEmail.includes('@')))
    problems.add(`${name}: has no client_email`);
  const keyPem = account?.private_key;
  if (account && typeof keyPem !== 'string') problems.add(`${name}: has no private_key`);
  const privateKey = typeof keyPem === 'string' ? rsaKey(problems, `${name} private_key`, keyPem) : undefined;
  if (problems.list.length > before || !privateKey) return undefined;
  const classId = classValue.startsWith(`${issuerId}.`) ? classValue : `${issuerId}.${classValue}`;
  return Object.freeze({ issuerId, classId, clientEmail: clientEmail as string, privateKey });
}

/** Names of a platform's values that are missing while others of it are set. */
function partlySet(env: Env, names: readonly (keyof Env)[], platform: string, problems: Problems): boolean {
  const absent = names.filter((n) => !env[n]);
  if (absent.length > 0 && absent.length < names.length)
    problems.add(
      `${absent.join(', ')}: required for ${platform} Wallet passes (other ${platform} values are set)`,
    );
  return absent.length === 0;
}

/** The wallet settings, and a message for every value that is missing or unusable. */
export function walletSettings(env: Env): { value: WalletSettings; problems: string[] } {
  const problems = new Problems();
  const appleSet = partlySet(env, APPLE, 'Apple', problems);
  const googleSet = partlySet(env, GOOGLE, 'Google', problems);
  return {
    value: Object.freeze({
      organizationName: env.WALLET_ORGANIZATION_NAME,
      apple: appleSet ? apple(env, problems) : undefined,
      google: googleSet ? google(env, problems) : undefined,
    }),
    problems: problems.list,
  };
}
