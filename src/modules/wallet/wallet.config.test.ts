import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configProblems } from '../../../test/helpers/config-problems.ts';
import { loadConfig } from '../../config.ts';
import { walletMaterial } from './wallet.test-support.ts';

const material = walletMaterial();
afterAll(material.cleanUp);

const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

describe('wallet configuration', () => {
  it('reads both platforms from PEM text, files, escaped PEM and JSON', () => {
    const { wallet } = loadConfig({ NODE_ENV: 'test', ...material.env });
    expect(wallet.organizationName).toBe('Test Label');
    expect(wallet.apple).toMatchObject({
      passTypeIdentifier: 'pass.test.identity',
      teamIdentifier: 'ABCDE12345',
    });
    expect(wallet.apple?.key).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    expect(wallet.google).toMatchObject({
      issuerId: material.env.WALLET_GOOGLE_ISSUER_ID,
      classId: `${material.env.WALLET_GOOGLE_ISSUER_ID}.identity`,
    });
    const accountFile = join(material.dir, 'account.json');
    writeFileSync(accountFile, material.serviceAccount);
    const fromFile = loadConfig({
      NODE_ENV: 'test',
      ...material.env,
      WALLET_GOOGLE_SERVICE_ACCOUNT: accountFile,
      WALLET_GOOGLE_CLASS_ID: `${material.env.WALLET_GOOGLE_ISSUER_ID}.identity`,
    });
    expect(fromFile.wallet.google?.classId).toBe(`${material.env.WALLET_GOOGLE_ISSUER_ID}.identity`);
  });

  it('leaves an unconfigured platform undefined', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).wallet).toMatchObject({ apple: undefined, google: undefined });
  });

  it('names what is missing when a platform is set in part', () => {
    expect(
      configProblems({
        WALLET_APPLE_TEAM_ID: 'ABCDE12345',
        WALLET_GOOGLE_ISSUER_ID: '1',
        WALLET_GOOGLE_CLASS_ID: 'x',
      }),
    ).toEqual([
      'WALLET_APPLE_PASS_TYPE_ID, WALLET_APPLE_CERTIFICATE, WALLET_APPLE_KEY, WALLET_APPLE_WWDR_CERTIFICATE: required for Apple Wallet passes (other Apple values are set)',
      'WALLET_GOOGLE_SERVICE_ACCOUNT: required for Google Wallet passes (other Google values are set)',
    ]);
  });

  it('lists every unusable value at once', () => {
    const problems = configProblems({
      ...material.env,
      WALLET_APPLE_PASS_TYPE_ID: 'com.example',
      WALLET_APPLE_TEAM_ID: 'abc',
      WALLET_APPLE_CERTIFICATE: '-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----',
      WALLET_APPLE_WWDR_CERTIFICATE: join(material.dir, 'missing.pem'),
      WALLET_APPLE_KEY_PASSPHRASE: 'wrong',
      WALLET_GOOGLE_ISSUER_ID: 'issuer',
      WALLET_GOOGLE_CLASS_ID: 'bad class',
      WALLET_GOOGLE_SERVICE_ACCOUNT: '{"client_email": 3}',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^WALLET_APPLE_PASS_TYPE_ID: must be a pass type identifier/),
      expect.stringMatching(/^WALLET_APPLE_TEAM_ID: must be the 10-character/),
      'WALLET_APPLE_CERTIFICATE: is not a PEM certificate',
      expect.stringMatching(/^WALLET_APPLE_WWDR_CERTIFICATE: is neither the expected text nor the path/),
      expect.stringMatching(/^WALLET_APPLE_KEY: is not a PEM private key \(or the passphrase/),
      'WALLET_GOOGLE_ISSUER_ID: must be the digits of the issuer id',
      expect.stringMatching(/^WALLET_GOOGLE_CLASS_ID: may hold/),
      'WALLET_GOOGLE_SERVICE_ACCOUNT: has no client_email',
      'WALLET_GOOGLE_SERVICE_ACCOUNT: has no private_key',
    ]);
  });

  it('refuses a key that is not the certificate’s, and keys that are not RSA', () => {
    const { WALLET_APPLE_KEY_PASSPHRASE: _, ...withoutPassphrase } = material.env;
    expect(
      configProblems({
        ...withoutPassphrase,
        WALLET_APPLE_KEY: otherKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
    ).toEqual(['WALLET_APPLE_KEY: is not the key of WALLET_APPLE_CERTIFICATE']);
    expect(
      configProblems({
        ...withoutPassphrase,
        WALLET_APPLE_KEY: ecKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        WALLET_GOOGLE_SERVICE_ACCOUNT: JSON.stringify({
          client_email: 'a@b.test',
          private_key: ecKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        }),
      }),
    ).toEqual([
      'WALLET_APPLE_KEY: must be an RSA key',
      'WALLET_GOOGLE_SERVICE_ACCOUNT private_key: must be an RSA key',
    ]);
    expect(configProblems({ ...material.env, WALLET_GOOGLE_SERVICE_ACCOUNT: '{not json' })).toEqual([
      'WALLET_GOOGLE_SERVICE_ACCOUNT: is not a service account key (a JSON object)',
    ]);
  });
});
