import { describe, expect, it } from 'vitest';
import { TestClock, useTestContext } from '../../../test/helpers/context.ts';

// No wallet variables: neither platform can sign passes here.
const clock = new TestClock(Date.parse('2031-05-06T10:00:00.000Z'));
const ctx = useTestContext({ clock });

const fetchPass = (platform: string, walletToken: string, bearer: string) =>
  ctx.request({
    method: 'GET',
    url: `/api/v1/wallet/identity/${platform}?token=${walletToken}`,
    token: bearer,
  });

const offer = async (token: string) =>
  (await ctx.request({ method: 'GET', url: '/api/v1/wallet/identity', token })).json();

describe('wallet without configuration', () => {
  it('says no platform is available, and still hands out tokens', async () => {
    const user = await ctx.newUser();
    expect(await offer(user.token)).toMatchObject({
      platforms: [
        { platform: 'apple', available: false },
        { platform: 'google', available: false },
      ],
      token: expect.any(String),
    });
  });

  it('answers 503 wallet_unavailable for a good token, and leaves it unused', async () => {
    const user = await ctx.newUser();
    const { token } = await offer(user.token);
    for (const platform of ['apple', 'google', 'apple']) {
      const res = await fetchPass(platform, token, user.token);
      expect(res.statusCode, platform).toBe(503);
      expect(res.json()).toMatchObject({ code: 'wallet_unavailable' });
      expect(res.json().error).toContain(platform === 'apple' ? 'Apple' : 'Google');
    }
  });

  it('checks the token first: unknown, expired or someone else’s is 403 even here', async () => {
    const [owner, other] = [await ctx.newUser(), await ctx.newUser()];
    const { token } = await offer(owner.token);
    for (const [walletToken, bearer] of [
      ['x'.repeat(43), owner.token],
      [token, other.token],
    ] as const) {
      const res = await fetchPass('google', walletToken, bearer);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('wallet_token_invalid');
    }
    clock.advance(5 * 60_000);
    const expired = await fetchPass('apple', token, owner.token);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe('wallet_token_invalid');
  });
});
