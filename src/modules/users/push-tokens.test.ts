import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestClock, useTestContext } from '../../../test/helpers/context.ts';
import { pushTokens } from '../../db/schema/index.ts';

const clock = new TestClock();
const ctx = useTestContext({ clock });

const register = (token: string, payload: unknown) =>
  ctx.request({ method: 'POST', url: '/api/v1/user/push-tokens', token, payload: payload as object });
const unregister = (token: string, payload: unknown) =>
  ctx.request({ method: 'DELETE', url: '/api/v1/user/push-tokens', token, payload: payload as object });

async function holderOf(device: string) {
  const rows = await ctx.database.db
    .select({ userId: pushTokens.userId })
    .from(pushTokens)
    .where(eq(pushTokens.token, device));
  return rows.map((r) => r.userId);
}

describe('push tokens', () => {
  it('registers a token with 201, then answers 200 and refreshes platform and last-seen on a repeat', async () => {
    const user = await ctx.newUser();
    const device = `device-${ctx.unique()}`;
    const first = await register(user.token, { token: device, platform: 'ios' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      token: device,
      platform: 'ios',
      createdAt: clock.now().toISOString(),
      lastSeenAt: clock.now().toISOString(),
    });

    const createdAt = clock.now().toISOString();
    clock.advance(60_000);
    const again = await register(user.token, { token: device, platform: 'web' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      id: first.json().id,
      token: device,
      platform: 'web',
      createdAt,
      lastSeenAt: clock.now().toISOString(),
    });
    expect(await holderOf(device)).toEqual([user.id]);
  });

  it('moves a token registered by another user to the caller (201)', async () => {
    const alice = await ctx.newUser();
    const bob = await ctx.newUser();
    const device = `shared-${ctx.unique()}`;
    await register(alice.token, { token: device, platform: 'android' });
    clock.advance(1000);
    const moved = await register(bob.token, { token: device, platform: 'android' });
    expect(moved.statusCode).toBe(201);
    expect(moved.json().createdAt).toBe(clock.now().toISOString());
    expect(await holderOf(device)).toEqual([bob.id]);

    // Alice no longer holds it: her delete is a no-op and does not take it from Bob.
    expect((await unregister(alice.token, { token: device })).statusCode).toBe(204);
    expect(await holderOf(device)).toEqual([bob.id]);
  });

  it('accepts tokens up to 4096 characters', async () => {
    const user = await ctx.newUser();
    const long = `${ctx.unique()}${'x'.repeat(4096)}`.slice(0, 4096);
    expect((await register(user.token, { token: long, platform: 'web' })).statusCode).toBe(201);
    expect((await register(user.token, { token: long, platform: 'web' })).statusCode).toBe(200);
    expect((await unregister(user.token, { token: long })).statusCode).toBe(204);
    expect(await holderOf(long)).toEqual([]);
  });

  it('deletes idempotently: 204 for a registered token and again for one that is gone', async () => {
    const user = await ctx.newUser();
    const device = `gone-${ctx.unique()}`;
    await register(user.token, { token: device, platform: 'ios' });
    const res = await unregister(user.token, { token: device });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await holderOf(device)).toEqual([]);
    expect((await unregister(user.token, { token: device })).statusCode).toBe(204);
    expect((await unregister(user.token, { token: 'never-registered' })).statusCode).toBe(204);
  });

  it('refuses an unknown platform, an empty or oversized token, and missing fields (400)', async () => {
    const user = await ctx.newUser();
    const platform = await register(user.token, { token: 'abc', platform: 'windows' });
    expect(platform.statusCode).toBe(400);
    expect(platform.json().details).toEqual([
      { path: '/body/platform', message: 'must be one of: ios, android, web' },
    ]);
    for (const payload of [
      { token: '', platform: 'ios' },
      { token: 'y'.repeat(4097), platform: 'ios' },
      { token: 'abc' },
      { token: 'abc', platform: 'ios', extra: true },
    ]) {
      const res = await register(user.token, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const noBody = await ctx.request({
      method: 'DELETE',
      url: '/api/v1/user/push-tokens',
      token: user.token,
    });
    expect(noBody.statusCode).toBe(400);
    const extra = await unregister(user.token, { token: 'abc', platform: 'ios' });
    expect(extra.json().details).toEqual([{ path: '/body/platform', message: 'is not an accepted field' }]);
  });
});
