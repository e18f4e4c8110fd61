import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../../test/helpers/ports.ts';
import { loadConfig } from '../../../config.ts';
import { systemClock } from '../../../shared/clock.ts';
import { ApnsClient, apnsOutcome } from './apns.ts';
import { FcmClient, fcmOutcome } from './fcm.ts';
import { APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC, iosToken, pushMaterial } from './push.test-support.ts';

const material = pushMaterial();
afterAll(material.cleanUp);

const content = { title: 'Hi', body: 'there', data: {} };

describe('push providers', () => {
  it('judge FCM answers: dead tokens, passing failures and our own mistakes', () => {
    const error = (status: number, errorCode: string, field?: string, message = 'x') => ({
      error: {
        code: status,
        status: 'S',
        message,
        details: [
          { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode },
          ...(field
            ? [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field }] }]
            : []),
        ],
      },
    });
    expect(fcmOutcome(404, error(404, 'UNREGISTERED')).kind).toBe('dead');
    expect(fcmOutcome(400, error(400, 'INVALID_ARGUMENT', 'message.token')).kind).toBe('dead');
    expect(
      fcmOutcome(400, error(400, 'INVALID_ARGUMENT', undefined, 'The registration token is not valid')).kind,
    ).toBe('dead');
    expect(fcmOutcome(400, error(400, 'INVALID_ARGUMENT', 'message.data')).kind).toBe('failed');
    expect(fcmOutcome(404, { error: { status: 'NOT_FOUND', message: 'no such project' } }).kind).toBe(
      'failed',
    );
    expect(fcmOutcome(429, error(429, 'QUOTA_EXCEEDED')).kind).toBe('retry');
    expect(fcmOutcome(503, error(503, 'UNAVAILABLE')).kind).toBe('retry');
    expect(fcmOutcome(500, {}).kind).toBe('retry');
    expect(fcmOutcome(403, error(403, 'SENDER_ID_MISMATCH')).kind).toBe('failed');
  });

  it('judge APNs answers the same way', () => {
    expect(apnsOutcome(410, 'Unregistered').kind).toBe('dead');
    expect(apnsOutcome(410, '').kind).toBe('dead');
    for (const reason of ['BadDeviceToken', 'DeviceTokenNotForTopic', 'Unregistered'])
      expect(apnsOutcome(400, reason).kind).toBe('dead');
    expect(apnsOutcome(400, 'PayloadTooLarge').kind).toBe('failed');
    expect(apnsOutcome(400, 'BadTopic').kind).toBe('failed');
    expect(apnsOutcome(403, 'InvalidProviderToken').kind).toBe('failed');
    expect(apnsOutcome(403, 'ExpiredProviderToken').kind).toBe('retry');
    expect(apnsOutcome(429, 'TooManyRequests').kind).toBe('retry');
    expect(apnsOutcome(503, 'ServiceUnavailable').kind).toBe('retry');
  });

  it('report a provider that cannot be reached as a failure for now', async () => {
    const port = await closedPort();
    const { push } = loadConfig({
      NODE_ENV: 'test',
      FCM_SERVICE_ACCOUNT: material.serviceAccount(`http://127.0.0.1:${port}/token`),
      FCM_API_URL: `http://127.0.0.1:${port}`,
      APNS_KEY: material.apnsKeyFile,
      APNS_KEY_ID,
      APNS_TEAM_ID,
      APNS_TOPIC,
      APNS_URL: `http://127.0.0.1:${port}`,
    });
    const fcm = new FcmClient(push.fcm!, systemClock);
    const apns = new ApnsClient(push.apns!, systemClock);
    try {
      const signal = new AbortController().signal;
      expect(await fcm.send('some-token', content, signal)).toMatchObject({ kind: 'retry' });
      expect(await apns.send(iosToken(), content, signal)).toMatchObject({ kind: 'retry' });
      // And again: the broken connection is not kept.
      expect(await apns.send(iosToken(), content, signal)).toMatchObject({ kind: 'retry' });
    } finally {
      await Promise.all([fcm.close(), apns.close()]);
    }
  });
});
