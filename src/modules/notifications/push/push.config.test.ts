import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configProblems } from '../../../../test/helpers/config-problems.ts';
import { loadConfig } from '../../../config.ts';
import {
  APNS_KEY_ID,
  APNS_TEAM_ID,
  APNS_TOPIC,
  CLIENT_EMAIL,
  PROJECT_ID,
  pushMaterial,
} from './push.test-support.ts';

const material = pushMaterial();
afterAll(material.cleanUp);

const apnsEnv = { APNS_KEY: material.apnsKeyFile, APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC };
const account = material.serviceAccount('https://oauth2.googleapis.com/token');

describe('push configuration', () => {
  it('is off unless configured', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).push).toEqual({ fcm: undefined, apns: undefined });
  });

  it('reads the service account as JSON or from a file, and the APNs key from a file or as PEM', () => {
    const { push } = loadConfig({ NODE_ENV: 'test', FCM_SERVICE_ACCOUNT: account, ...apnsEnv });
    expect(push.fcm).toMatchObject({
      projectId: PROJECT_ID,
      clientEmail: CLIENT_EMAIL,
      tokenUri: 'https://oauth2.googleapis.com/token',
      apiUrl: 'https://fcm.googleapis.com',
    });
    expect(push.fcm?.privateKey.asymmetricKeyType).toBe('rsa');
    expect(push.apns).toMatchObject({
      keyId: APNS_KEY_ID,
      teamId: APNS_TEAM_ID,
      topic: APNS_TOPIC,
      url: 'https://api.push.apple.com',
    });

    const accountFile = join(material.dir, 'account.json');
    writeFileSync(accountFile, account);
    const fromFiles = loadConfig({
      NODE_ENV: 'test',
      FCM_SERVICE_ACCOUNT: accountFile,
      ...apnsEnv,
      // A one-line value with escaped line breaks, as environment files often hold it.
      APNS_KEY: material.applePrivateKeyPem.replaceAll('\n', '\\n'),
      APNS_URL: 'https://api.sandbox.push.apple.com/',
    }).push;
    expect(fromFiles.fcm?.projectId).toBe(PROJECT_ID);
    expect(fromFiles.apns?.url).toBe('https://api.sandbox.push.apple.com');
    expect(fromFiles.apns?.key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('names the APNs values missing when some are set', () => {
    expect(configProblems({ APNS_KEY: material.apnsKeyFile })).toEqual([
      'APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC: required for APNs (other APNS_ values are set)',
    ]);
    expect(configProblems({ APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC })).toEqual([
      'APNS_KEY: required for APNs (other APNS_ values are set)',
    ]);
    expect(configProblems({ APNS_URL: 'https://api.sandbox.push.apple.com' })).toEqual([
      'APNS_URL: set only together with the other APNS_ values',
    ]);
    expect(configProblems({ FCM_API_URL: 'https://fcm.googleapis.com' })).toEqual([
      'FCM_API_URL: set only together with FCM_SERVICE_ACCOUNT',
    ]);
  });

  it('lists every unusable value at once', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const problems = configProblems({
      FCM_SERVICE_ACCOUNT: JSON.stringify({ project_id: 'x', client_email: 'nobody', private_key: 'nope' }),
      FCM_API_URL: 'http://fcm.example.com',
      APNS_KEY: rsa.export({ type: 'pkcs8', format: 'pem' }).toString(),
      APNS_KEY_ID: 'short',
      APNS_TEAM_ID: 'lowercase1',
      APNS_TOPIC: 'nodots',
      APNS_URL: 'http://api.push.apple.com',
    });
    expect(problems).toEqual([
      'FCM_API_URL: must use https (plain http only to a loopback host), got http://fcm.example.com/',
      'FCM_SERVICE_ACCOUNT: has no project_id (the Firebase project id)',
      'FCM_SERVICE_ACCOUNT: has no client_email',
      'FCM_SERVICE_ACCOUNT private_key: is not a PEM private key',
      'APNS_KEY_ID: must be the 10-character key identifier',
      'APNS_TEAM_ID: must be the 10-character Apple team identifier',
      'APNS_TOPIC: must be the app bundle identifier, such as com.example.app',
      'APNS_URL: must use https (plain http only to a loopback host), got http://api.push.apple.com/',
      'APNS_KEY: must be an EC P-256 key (the .p8 file from Apple)',
    ]);
  });

  it('refuses a service account that is neither JSON nor a readable file, and a token_uri over plain http', () => {
    expect(configProblems({ FCM_SERVICE_ACCOUNT: join(material.dir, 'missing.json') })).toEqual([
      'FCM_SERVICE_ACCOUNT: is neither the expected text nor the path of a readable file',
    ]);
    expect(configProblems({ FCM_SERVICE_ACCOUNT: '{"project_id": ' })).toEqual([
      'FCM_SERVICE_ACCOUNT: is not a service account key (a JSON object)',
    ]);
    expect(
      configProblems({ FCM_SERVICE_ACCOUNT: material.serviceAccount('http://oauth2.example.com/token') }),
    ).toEqual([
      'FCM_SERVICE_ACCOUNT token_uri: must use https (plain http only to a loopback host), got http://oauth2.example.com/token',
    ]);
    // Loopback stand-ins may use plain http.
    expect(
      configProblems({
        FCM_SERVICE_ACCOUNT: material.serviceAccount('http://127.0.0.1:9/token'),
        FCM_API_URL: 'http://localhost:9',
      }),
    ).toEqual([]);
  });
});
