import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestContext,
  TestClock,
  type TestContext,
  type TestUser,
} from '../../../../test/helpers/context.ts';
import { jobs, type PushPlatform, pushTokens } from '../../../db/schema/index.ts';
import { sha256 } from '../../../shared/hash.ts';
import { PUSH_JOB } from './push.service.ts';
import {
  APNS_TOPIC,
  ApnsStandIn,
  badField,
  CLIENT_EMAIL,
  FcmStandIn,
  fcmError,
  fcmToken,
  iosToken,
  PRIVATE_KEY_ID,
  pushMaterial,
} from './push.test-support.ts';
import { enqueuePush, type PushMessage, pushConfigured } from './push.ts';

const clock = new TestClock();
const material = pushMaterial();
const fcm = new FcmStandIn(material.googlePublicKey, clock);
const apns = new ApnsStandIn(material.applePublicKey, clock);
let ctx: TestContext & { close(): Promise<void> };

beforeAll(async () => {
  await Promise.all([fcm.start(), apns.start()]);
  ctx = await createTestContext({ clock, env: material.env(fcm, apns) });
});

afterAll(async () => {
  await ctx?.close();
  await Promise.all([fcm.stop(), apns.stop()]);
  material.cleanUp();
});

beforeEach(() => {
  fcm.sends.length = 0;
  apns.requests.length = 0;
});

async function device(user: TestUser, platform: PushPlatform): Promise<string> {
  const token = platform === 'ios' ? iosToken() : fcmToken();
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v1/user/push-tokens',
    token: user.token,
    payload: { token, platform },
  });
  expect(res.statusCode).toBe(201);
  return token;
}

async function push(message: PushMessage): Promise<boolean> {
  return ctx.database.db.transaction((tx) => enqueuePush(tx, message));
}

/** The user's push jobs still in the table (queued, running or failed). */
const pushJobs = (userId: string) =>
  ctx.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.type, PUSH_JOB), sql`${jobs.payload} ->> 'userId' = ${userId}`));

async function tokensHeldBy(userId: string): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ token: pushTokens.token })
    .from(pushTokens)
    .where(eq(pushTokens.userId, userId));
  return rows.map((r) => r.token).sort();
}

const sentTo = () => [...fcm.sends.map((s) => s.token), ...apns.requests.map((r) => r.token)].sort();

describe('push delivery', () => {
  it('pushes each new notification to its person’s devices, unless they turned push off', async () => {
    const team = await ctx.newTeam();
    const [commenter, quiet] = [await ctx.addMember(team), await ctx.addMember(team)];
    const phone = await device(team.owner, 'ios');
    await device(quiet, 'android');
    await ctx.request({
      method: 'PATCH',
      url: '/api/v1/user/preferences',
      token: quiet.token,
      payload: { pushNotifications: false },
    });
    const track = await ctx.newTrack(team);
    const comment = (by: TestUser, parentId?: number) =>
      ctx.request({
        method: 'POST',
        url: `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`,
        token: by.token,
        payload: { comment: 'Love the hook', ...(parentId ? { parentId } : {}) },
      });
    const quietOne = (await comment(quiet)).json();
    await comment(commenter, quietOne.id);
    await ctx.app.services.jobs.runDue();

    const feed = await ctx.request({
      method: 'GET',
      url: '/api/v1/user/notifications',
      token: team.owner.token,
    });
    const [first, second] = feed.json().items;
    expect(apns.requests.map((r) => [r.token, r.body])).toEqual(
      [second, first].map((n) => [
        phone,
        {
          aps: { alert: { title: expect.stringMatching(/commented on your track$/), body: '' } },
          notificationId: String(n.id),
          kind: 'comment',
          link: `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`,
        },
      ]),
    );
    // The reply told `quiet` in the app, but not on their phone.
    const theirs = await ctx.request({
      method: 'GET',
      url: '/api/v1/user/notifications',
      token: quiet.token,
    });
    expect(theirs.json().items.map((n: { kind: string }) => n.kind)).toEqual(['reply']);
    expect(fcm.sends).toEqual([]);
  });

  it('sends to every device of the user across FCM and APNs, with the protocols each expects', async () => {
    expect(pushConfigured).toBe(true);
    expect(ctx.app.services.push.configured).toBe(true);
    const alice = await ctx.newUser();
    const bob = await ctx.newUser();
    const android = [await device(alice, 'android'), await device(alice, 'android')];
    const web = await device(alice, 'web');
    const ios = [await device(alice, 'ios'), await device(alice, 'ios')];
    await device(bob, 'android');

    expect(
      await push({
        userId: alice.id,
        title: 'Maya mentioned you',
        body: 'in "Night Drive"',
        data: { kind: 'mention', url: '/tracks/1', aps: 'never overrides', google_x: 'reserved' },
      }),
    ).toBe(true);
    expect(await pushJobs(alice.id)).toHaveLength(1);
    await ctx.app.services.jobs.runDue();

    expect(fcm.refused).toEqual([]);
    expect(apns.refused).toEqual([]);
    expect(sentTo()).toEqual([...android, web, ...ios].sort());
    for (const send of fcm.sends) {
      expect(send.message).toEqual({
        token: send.token,
        notification: { title: 'Maya mentioned you', body: 'in "Night Drive"' },
        data: { kind: 'mention', url: '/tracks/1' },
      });
    }
    // One exchange for the three sends, with an assertion the stand-in verified against the account's key.
    expect(fcm.exchanges).toHaveLength(1);
    const [exchange] = fcm.exchanges;
    expect(exchange!.header).toEqual({ alg: 'RS256', typ: 'JWT', kid: PRIVATE_KEY_ID });
    expect(exchange!.claims).toMatchObject({ iss: CLIENT_EMAIL, aud: `${fcm.url}/token` });
    expect(Number(exchange!.claims.exp) - Number(exchange!.claims.iat)).toBe(3600);
    expect(new Set(fcm.sends.map((s) => s.accessToken)).size).toBe(1);

    for (const request of apns.requests) {
      expect(request).toMatchObject({
        topic: APNS_TOPIC,
        pushType: 'alert',
        contentType: 'application/json',
      });
      expect(request.body).toEqual({
        aps: { alert: { title: 'Maya mentioned you', body: 'in "Night Drive"' } },
        kind: 'mention',
        url: '/tracks/1',
      });
    }
    // One provider token, on one connection.
    expect(new Set(apns.requests.map((r) => r.jwt)).size).toBe(1);
    expect(apns.sessionsOpened).toBe(1);
    expect(await pushJobs(alice.id)).toEqual([]);
  });

  it('reuses the access token and provider token across jobs and renews each when it is due', async () => {
    // Past the lifetime of whatever earlier tests obtained.
    clock.advance(2 * 60 * 60_000);
    const user = await ctx.newUser();
    await device(user, 'android');
    await device(user, 'ios');
    const exchangesBefore = fcm.exchanges.length;
    const message = { userId: user.id, title: 'Review requested', body: 'Mix v3' };

    await push(message);
    await push(message);
    await ctx.app.services.jobs.runDue();
    expect(fcm.sends).toHaveLength(2);
    expect(apns.requests).toHaveLength(2);
    expect(fcm.exchanges).toHaveLength(exchangesBefore + 1);
    expect(new Set(fcm.sends.map((s) => s.accessToken)).size).toBe(1);
    expect(new Set(apns.requests.map((r) => r.jwt)).size).toBe(1);

    // 51 minutes on: the access token (an hour, renewed 5 minutes early) still serves; the APNs token is renewed.
    clock.advance(51 * 60_000);
    await push(message);
    await ctx.app.services.jobs.runDue();
    expect(fcm.exchanges).toHaveLength(exchangesBefore + 1);
    expect(fcm.sends[2]!.accessToken).toBe(fcm.sends[0]!.accessToken);
    expect(apns.requests[2]!.jwt).not.toBe(apns.requests[0]!.jwt);

    // 56 minutes after the exchange: a new one.
    clock.advance(5 * 60_000);
    await push(message);
    await ctx.app.services.jobs.runDue();
    expect(fcm.exchanges).toHaveLength(exchangesBefore + 2);
    expect(fcm.sends[3]!.accessToken).not.toBe(fcm.sends[0]!.accessToken);
    expect(apns.requests[3]!.jwt).toBe(apns.requests[2]!.jwt);
    expect(fcm.refused).toEqual([]);
    expect(apns.refused).toEqual([]);
  });

  it('removes the tokens the providers call dead, but not one another user registered meanwhile', async () => {
    const carol = await ctx.newUser();
    const dave = await ctx.newUser();
    const unregistered = await device(carol, 'android');
    const invalid = await device(carol, 'web');
    const moved = await device(carol, 'android');
    const gone = await device(carol, 'ios');
    const bad = await device(carol, 'ios');
    const otherTopic = await device(carol, 'ios');
    const healthy = await device(carol, 'android');
    const badData = await device(carol, 'web');
    fcm.answers.set(unregistered, [fcmError(404, 'UNREGISTERED')]);
    fcm.answers.set(invalid, [fcmError(400, 'INVALID_ARGUMENT', [badField('message.token')])]);
    fcm.answers.set(moved, [fcmError(404, 'UNREGISTERED')]);
    // Invalid, but not because of the token: kept.
    fcm.answers.set(badData, [fcmError(400, 'INVALID_ARGUMENT', [badField('message.data')])]);
    apns.answers.set(gone, [{ status: 410, body: { reason: 'Unregistered', timestamp: 1 } }]);
    apns.answers.set(bad, [{ status: 400, body: { reason: 'BadDeviceToken' } }]);
    apns.answers.set(otherTopic, [{ status: 400, body: { reason: 'DeviceTokenNotForTopic' } }]);
    // The device signs in as Dave while the send to it is under way.
    fcm.beforeAnswer = async (token) => {
      if (token !== moved) return;
      const res = await ctx.request({
        method: 'POST',
        url: '/api/v1/user/push-tokens',
        token: dave.token,
        payload: { token: moved, platform: 'android' },
      });
      expect(res.statusCode).toBe(201);
    };
    try {
      await push({ userId: carol.id, title: 'Invite', body: 'Join the Hollow Pines team' });
      await ctx.app.services.jobs.runDue();
    } finally {
      fcm.beforeAnswer = undefined;
    }
    expect(sentTo()).toEqual([unregistered, invalid, moved, gone, bad, otherTopic, healthy, badData].sort());
    expect(await tokensHeldBy(carol.id)).toEqual([healthy, badData].sort());
    expect(await tokensHeldBy(dave.id)).toEqual([moved]);
    // Nothing here is worth another attempt.
    expect(await pushJobs(carol.id)).toEqual([]);
  });

  it('retries devices that failed for now, without sending again to those already settled', async () => {
    const erin = await ctx.newUser();
    const flaky = await device(erin, 'android');
    const fine = await device(erin, 'web');
    const throttled = await device(erin, 'ios');
    const fineIos = await device(erin, 'ios');
    const refused = await device(erin, 'web');
    fcm.answers.set(refused, [fcmError(403, 'SENDER_ID_MISMATCH')]);
    fcm.answers.set(flaky, [{ status: 503, body: { error: { code: 503, status: 'UNAVAILABLE' } } }]);
    apns.answers.set(throttled, [{ status: 429, body: { reason: 'TooManyRequests' } }]);

    await push({ userId: erin.id, title: 'Follow-up due', body: 'Call the venue' });
    await ctx.app.services.jobs.runDue();
    expect(sentTo()).toEqual([flaky, fine, throttled, fineIos, refused].sort());
    const [job] = await pushJobs(erin.id);
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(job!.lastError).toMatch(/2 of 5 devices failed for now/);
    expect(((job!.payload as { done: string[] }).done ?? []).sort()).toEqual(
      [sha256(fine), sha256(fineIos), sha256(refused)].sort(),
    );

    // Not before its back-off.
    await ctx.app.services.jobs.runDue();
    expect(sentTo()).toHaveLength(5);
    expect(await pushJobs(erin.id)).toMatchObject([{ status: 'queued', attempts: 1 }]);
    clock.advance(10 * 60_000);
    fcm.sends.length = 0;
    apns.requests.length = 0;
    await ctx.app.services.jobs.runDue();
    expect(sentTo()).toEqual([flaky, throttled].sort());
    expect(await pushJobs(erin.id)).toEqual([]);
    expect(await tokensHeldBy(erin.id)).toEqual([flaky, fine, throttled, fineIos, refused].sort());
  });

  it('gives up at once on a permanent error that is not the token’s, keeping the token', async () => {
    const frank = await ctx.newUser();
    const refused = await device(frank, 'android');
    fcm.answers.set(refused, [fcmError(403, 'SENDER_ID_MISMATCH')]);
    await push({ userId: frank.id, title: 'Comment', body: 'Nice bridge' });
    await ctx.app.services.jobs.runDue();
    expect(sentTo()).toEqual([refused]);
    expect(await pushJobs(frank.id)).toEqual([]);
    expect(await tokensHeldBy(frank.id)).toEqual([refused]);
  });

  it('opens a new APNs connection after Apple closes the old one', async () => {
    const gina = await ctx.newUser();
    const phone = await device(gina, 'ios');
    await push({ userId: gina.id, title: 'One', body: 'first' });
    await ctx.app.services.jobs.runDue();
    const opened = apns.sessionsOpened;
    await apns.dropConnections();
    await push({ userId: gina.id, title: 'Two', body: 'second' });
    await ctx.app.services.jobs.runDue();
    expect(
      apns.requests.map((r) => [r.token, (r.body as { aps: { alert: { title: string } } }).aps.alert.title]),
    ).toEqual([
      [phone, 'One'],
      [phone, 'Two'],
    ]);
    expect(apns.sessionsOpened).toBe(opened + 1);
    expect(await pushJobs(gina.id)).toEqual([]);
  });

  it('queues nothing for a user without a device, and cuts text to what the providers accept', async () => {
    const hal = await ctx.newUser();
    expect(await push({ userId: hal.id, title: 'Nobody', body: 'listens' })).toBe(false);
    expect(await pushJobs(hal.id)).toEqual([]);

    const phone = await device(hal, 'android');
    await push({
      userId: hal.id,
      title: 't'.repeat(500),
      body: 'b'.repeat(5000),
      data: { long: 'v'.repeat(2000) },
    });
    await ctx.app.services.jobs.runDue();
    const message = fcm.sends[0]!.message as {
      token: string;
      notification: { title: string; body: string };
      data: { long: string };
    };
    expect(message.token).toBe(phone);
    expect(message.notification.title).toHaveLength(200);
    expect(message.notification.body).toHaveLength(1000);
    expect(message.data.long).toHaveLength(512);
  });

  it('drops the job with the transaction that wrote it', async () => {
    const ivy = await ctx.newUser();
    await device(ivy, 'web');
    await expect(
      ctx.database.db.transaction(async (tx) => {
        expect(await enqueuePush(tx, { userId: ivy.id, title: 'Lost', body: 'rolled back' })).toBe(true);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await pushJobs(ivy.id)).toEqual([]);
  });
});
